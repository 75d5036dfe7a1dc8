import type { UserRow } from "../db/schema";
import { isAdmin, isGuest, isOwner } from "./roles";

export const MAX_FULL_NAME_LENGTH = 100;
const EMAIL_RE = /^[^\s@<>()[\]\\,;:"]+@[^\s@<>()[\]\\,;:"]+\.[^\s@<>()[\]\\,;:"]+$|^[^\s@<>()[\]\\,;:"]+@localhost$/i;

export const isValidEmail = (email: string) => email.length <= 254 && EMAIL_RE.test(email);

/** Checks a full name the way Zulip does; returns the cleaned name or an error message. */
export function checkFullName(name: string): { ok: true; name: string } | { ok: false; msg: string } {
  const n = name.trim();
  if (!n) return { ok: false, msg: "Name too short!" };
  if (n.length > MAX_FULL_NAME_LENGTH) return { ok: false, msg: "Name too long!" };
  if (/[\x00-\x1f*`\\>"@]/.test(n)) return { ok: false, msg: "Invalid characters in name!" };
  return { ok: true, name: n };
}

export function avatarUrl(user: UserRow, externalUrl: string): string {
  if (user.avatarSource === "U") return `${externalUrl}/user_avatars/${user.realmId}/${user.id}.png?version=${user.avatarVersion}`;
  return `https://secure.gravatar.com/avatar/${gravatarHash(user.email)}?d=identicon&version=${user.avatarVersion}`;
}

// Avatar URLs are in every user object: remember the hashes (bounded, whatever the number of users).
const gravatarHashes = new Map<string, string>();
function gravatarHash(email: string): string {
  let hash = gravatarHashes.get(email);
  if (hash === undefined) {
    hash = new Bun.CryptoHasher("md5").update(email.toLowerCase()).digest("hex");
    if (gravatarHashes.size >= 10_000) gravatarHashes.clear();
    gravatarHashes.set(email, hash);
  }
  return hash;
}

export const isoDate = (seconds: number) => new Date(seconds * 1000).toISOString().replace(/\.\d{3}Z$/, "+00:00");

export interface UserViewOptions {
  externalUrl: string;
  clientGravatar?: boolean;
  /** profile_data (custom profile field values by field id) for human users; absent: not shown. */
  profileData?: Record<string, unknown>;
}

/** The user object as Zulip's GET /users and realm_user show it (one serializer for responses and events). */
export function toApiUser(u: UserRow, o: UserViewOptions) {
  const gravatarHidden = o.clientGravatar && u.avatarSource === "G";
  const out: Record<string, unknown> = {
    user_id: u.id,
    email: u.email,
    delivery_email: u.email,
    full_name: u.fullName,
    date_joined: isoDate(u.dateJoined),
    is_active: u.isActive,
    is_owner: isOwner(u.role),
    is_admin: isAdmin(u.role),
    is_guest: isGuest(u.role),
    is_bot: u.isBot,
    role: u.role,
    timezone: u.timezone,
    avatar_version: u.avatarVersion,
    avatar_url: gravatarHidden ? null : avatarUrl(u, o.externalUrl),
  };
  out.bot_type = u.isBot ? u.botType : null;
  out.bot_owner_id = u.isBot ? u.botOwnerId : null;
  if (!u.isBot && o.profileData) out.profile_data = o.profileData;
  return out;
}
