import type { App } from "../context";
import type { RealmRow, UserRow } from "../db/schema";
import { isGuest } from "../domain/roles";
import { STATIC_IMAGES } from "../domain/realms";
import { isoDate } from "../domain/users";
import { hasRealmPermission } from "../store/permissions";
import { usersSharingWith } from "../store/user-access";
import { listUsers } from "../store/users";
import type { Tx } from "../db/tx";
import { toUsers } from "../events/types";

/**
 * Which users a viewer may see (the realm's can_access_all_users_group): null means everyone. A guest
 * outside that group sees only the people they share a channel or a conversation with.
 */
export function accessibleUserIds(app: App, realm: RealmRow, viewer: UserRow): Set<number> | null {
  if (!isGuest(viewer.role) || hasRealmPermission(app.db, realm, viewer, "can_access_all_users_group")) return null;
  return usersSharingWith(app.db, viewer.id);
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

/**
 * Announces a new user: everyone who may see them gets the real `realm_user` add; a guest limited by
 * can_access_all_users_group gets a stand-in instead, which events/present.ts drops for clients with
 * user_list_incomplete.
 */
export function emitUserAdded(app: App, tx: Tx, realm: RealmRow, person: { user_id: number }) {
  const users = listUsers(tx.db, realm.id).filter((u) => u.isActive || u.id === person.user_id);
  const limited = users.filter((u) => u.id !== person.user_id && accessibleUserIds(app, realm, u) !== null).map((u) => u.id);
  const barred = new Set(limited);
  tx.emit({ type: "realm_user", op: "add", person }, toUsers(users.filter((u) => !barred.has(u.id)).map((u) => u.id)));
  if (limited.length) tx.emit({ type: "realm_user", op: "add", person: inaccessibleUser(app, realm, person.user_id), stand_in: true }, toUsers(limited));
}
