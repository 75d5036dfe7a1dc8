// The one permission engine: every can_*_group check in confab asks `inGroupSetting` (or one of the
// two shorthands below, which resolve a realm's or a group's setting and then ask it).
import type { Db } from "../db/client";
import type { RealmRow, UserGroupRow, UserRow } from "../db/schema";
import { USER_GROUP_PERMISSIONS, type GroupSettingValue, type PermissionConfig, type UserGroupPermission } from "../domain/group-settings";
import { REALM_SETTINGS, type RealmGroupSettingName } from "../domain/realm-settings";
import { isGuest } from "../domain/roles";
import { realmGroupSetting } from "./realm-settings";
import { isUserInGroups, storedGroupSetting, systemGroupIds } from "./user-groups";

/**
 * Is this user in the group-setting value? System groups, nested subgroups (to any depth) and anonymous
 * values all resolve through one recursive query; deactivated users are never in anything. With the
 * setting's config, guests never hold a permission that may not be granted to role:everyone.
 */
export async function inGroupSetting(db: Db, user: UserRow, value: GroupSettingValue, config?: PermissionConfig): Promise<boolean> {
  if (!user.isActive) return false;
  if (config && !config.allowEveryone && isGuest(user.role)) return false;
  if (typeof value === "number") return await isUserInGroups(db, user.id, [value]);
  if (value.direct_members.includes(user.id)) return true;
  return await isUserInGroups(db, user.id, value.direct_subgroups);
}

/** Does the user hold this organization permission (e.g. "can_create_groups")? */
export const hasRealmPermission = async (db: Db, realm: RealmRow, user: UserRow, name: RealmGroupSettingName): Promise<boolean> =>
  await inGroupSetting(db, user, await realmGroupSetting(db, realm, name), REALM_SETTINGS[name].kind.config);

/** A user group's setting: stored for user groups; system groups hold their defaults (role:nobody). */
export async function userGroupSetting(db: Db, group: UserGroupRow, name: UserGroupPermission): Promise<GroupSettingValue> {
  const stored = storedGroupSetting(group, name);
  if (stored !== undefined) return stored;
  const c = USER_GROUP_PERMISSIONS[name];
  const def = group.isSystemGroup ? (c.defaultForSystemGroups ?? "role:nobody") : c.default;
  return (await systemGroupIds(db, group.realmId))[def === "creator" ? "role:nobody" : def]!;
}

/** Does the user hold this permission on the user group (e.g. "can_join_group")? */
export const hasGroupPermission = async (db: Db, group: UserGroupRow, user: UserRow, name: UserGroupPermission): Promise<boolean> =>
  await inGroupSetting(db, user, await userGroupSetting(db, group, name), USER_GROUP_PERMISSIONS[name]);
