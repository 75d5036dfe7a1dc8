import { realmProfileData } from "../../serializers/profile-fields";
import { isSystemBot } from "../../domain/bots";
import { isAdmin, isGuest, isModerator, isOwner } from "../../domain/roles";
import { avatarUrl, toApiUser } from "../../domain/users";
import { hasRealmPermission } from "../../store/permissions";
import { listUsers } from "../../store/users";
import type { StateBuilder } from "./types";
import { accessibleUserIds, inaccessibleUser } from "../../access/users";

/** Users not seen for this long may lose avatar_url for clients with user_avatar_url_field_optional. */
const LONG_IDLE_SECONDS = 14 * 24 * 3600;

/** The `realm_user` fetch type: the realm's users and the caller's own identity and permissions. */
export const realmUserState: StateBuilder = async ({ app, realm, user, opts }) => {
  const profile = await realmProfileData(app.db, realm.id);
  const base = { externalUrl: app.config.externalUrl, clientGravatar: opts.clientGravatar };
  const all = await listUsers(app.db, realm.id);
  // A guest limited by can_access_all_users_group gets stand-ins for the others, or (user_list_incomplete)
  // nothing for them.
  const visible = user ? await accessibleUserIds(app, realm, user) : null;
  const incomplete = !!opts.capabilities.user_list_incomplete;
  // user_avatar_url_field_optional: leave avatar_url out for users not seen for a long time.
  const idleSince = opts.capabilities.user_avatar_url_field_optional ? app.now() - LONG_IDLE_SECONDS : null;
  const realmUsers: unknown[] = [];
  const nonActive: unknown[] = [];
  const systemBots: unknown[] = [];
  for (const u of user ? all : []) {
    // The system bots are known to everyone, as cross-realm bots.
    if (isSystemBot(u)) {
      systemBots.push({ ...toApiUser(u, { ...base, profileData: profile(u.id) }), is_system_bot: true });
      continue;
    }
    // Spectators (no user) get no user list: only web-public messages carry their senders.
    if (visible && !visible.has(u.id)) {
      if (!incomplete && u.isActive) realmUsers.push(inaccessibleUser(app, realm, u.id));
      continue;
    }
    const obj = toApiUser(u, { ...base, profileData: profile(u.id) });
    if (idleSince !== null && !u.isBot && (u.lastActive ?? 0) < idleSince) delete obj.avatar_url;
    (u.isActive ? realmUsers : nonActive).push(obj);
  }
  const state: Record<string, unknown> = { realm_users: realmUsers, realm_non_active_users: nonActive, cross_realm_bots: systemBots };
  if (!user) return state;
  const url = avatarUrl(user, app.config.externalUrl);
  const can = async (name: Parameters<typeof hasRealmPermission>[3]) => await hasRealmPermission(app.db, realm, user, name);
  const pub = await can("can_create_public_channel_group");
  const priv = await can("can_create_private_channel_group");
  return {
    ...state,
    user_id: user.id,
    email: user.email,
    delivery_email: user.email,
    full_name: user.fullName,
    avatar_source: user.avatarSource,
    avatar_url: url,
    avatar_url_medium: url,
    is_admin: isAdmin(user.role),
    is_owner: isOwner(user.role),
    is_moderator: isModerator(user.role),
    is_guest: isGuest(user.role),
    can_create_streams: pub || priv,
    can_create_public_streams: pub,
    can_create_private_streams: priv,
    can_create_web_public_streams: await can("can_create_web_public_channel_group"),
    can_subscribe_other_users: await can("can_add_subscribers_group"),
    can_invite_others_to_realm: await can("can_invite_users_group"),
  };
};
