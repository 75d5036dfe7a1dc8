// User group objects as the API shows them (GET /user_groups, register, user_group events).
import type { Db } from "../db/client";
import type { UserGroupRow } from "../db/schema";
import { USER_GROUP_PERMISSION_NAMES, type GroupSettingValue, type UserGroupPermission } from "../domain/group-settings";
import { toApiUserGroup } from "../domain/user-groups";
import { userGroupSetting } from "../store/permissions";
import * as store from "../store/user-groups";
import { listInactiveUserIds } from "../store/users";

/** The group object as clients see it (one serializer for responses, events and register). */
export function userGroupObject(db: Db, g: UserGroupRow, inactive = listInactiveUserIds(db, g.realmId)) {
  const settings = Object.fromEntries(USER_GROUP_PERMISSION_NAMES.map((n) => [n, userGroupSetting(db, g, n)])) as Record<
    UserGroupPermission,
    GroupSettingValue
  >;
  return toApiUserGroup(g, {
    members: store.listDirectMemberIds(db, g.id, true),
    subgroups: store.listDirectSubgroupIds(db, g.id),
    settings,
    inactive,
  });
}

/**
 * Every group of a realm as clients see it, from three realm-wide queries (GET /user_groups and
 * register's realm_user_groups). Deactivated groups only when asked for.
 */
export function realmGroupObjects(db: Db, realmId: number, includeDeactivated: boolean) {
  const groups = store.listUserGroups(db, realmId, includeDeactivated);
  const members = new Map<number, number[]>(groups.map((g) => [g.id, []]));
  const subgroups = new Map<number, number[]>(groups.map((g) => [g.id, []]));
  for (const { g, u } of store.listRealmMemberships(db, realmId)) members.get(g)?.push(u);
  for (const { g, s } of store.listRealmSubgroupLinks(db, realmId)) subgroups.get(g)?.push(s);
  const inactive = listInactiveUserIds(db, realmId);
  return groups.map((g) =>
    toApiUserGroup(g, {
      members: members.get(g.id)!,
      subgroups: subgroups.get(g.id)!,
      settings: Object.fromEntries(USER_GROUP_PERMISSION_NAMES.map((n) => [n, userGroupSetting(db, g, n)])) as Record<UserGroupPermission, GroupSettingValue>,
      inactive,
    }),
  );
}
