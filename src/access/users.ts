// Which users a viewer may see, and the stand-in shown for those they may not (Zulip's
// can_access_all_users_group).
import type { App } from "../context";
import type { RealmRow, UserRow } from "../db/schema";
import { isGuest } from "../domain/roles";
import { STATIC_IMAGES } from "../domain/realms";
import { isoDate } from "../domain/users";
import { hasRealmPermission } from "../store/permissions";
import { usersSharingWith } from "../store/user-access";

/**
 * Which users a viewer may see (the realm's can_access_all_users_group): null means everyone. A guest
 * outside that group sees only the people they share a channel or a conversation with.
 */
export async function accessibleUserIds(app: App, realm: RealmRow, viewer: UserRow): Promise<Set<number> | null> {
  if (!isGuest(viewer.role) || (await hasRealmPermission(app.db, realm, viewer, "can_access_all_users_group"))) return null;
  return await usersSharingWith(app.db, viewer.id);
}

/** Zulip's stand-in for a user the viewer may not see: same id, no name, no address. */
export function inaccessibleUser(app: App, realm: RealmRow, userId: number) {
  const host = new URL(app.config.externalUrl).hostname;
  return {
    user_id: userId,
    email: `user${userId}@${host}`,
    delivery_email: null,
    full_name: "Unknown user",
    date_joined: isoDate(realm.dateCreated),
    is_active: true,
    is_owner: false,
    is_admin: false,
    is_guest: false,
    is_bot: false,
    bot_type: null,
    bot_owner_id: null,
    role: 400,
    timezone: "",
    avatar_version: 1,
    avatar_url: app.config.externalUrl + STATIC_IMAGES.unknownUserPng,
    profile_data: {},
  };
}
