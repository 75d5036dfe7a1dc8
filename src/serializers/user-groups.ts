// User group objects as the API shows them (GET /user_groups, register, user_group events).
import type { Db } from "../db/client";
import type { UserGroupRow } from "../db/schema";
import { USER_GROUP_PERMISSION_NAMES, type GroupSettingValue, type UserGroupPermission } from "../domain/group-settings";
import { toApiUserGroup } from "../domain/user-groups";
import { userGroupSetting } from "../store/permissions";
import * as store from "../store/user-groups";
import { listInactiveUserIds } from "../store/users";
import { mapInOrder } from "../lib/in-order";

/** The group object as clients see it (one serializer for responses, events and register). */
export async function userGroupObject(db: Db, g: UserGroupRow, inactive?: ReadonlySet<number>) {
  inactive ??= await listInactiveUserIds(db, g.realmId);
  const settings = Object.fromEntries(await mapInOrder(USER_GROUP_PERMISSION_NAMES, async (n) => [n, await userGroupSetting(db, g, n)])) as Record<
    UserGroupPermission,
    GroupSettingValue
  >;
  return toApiUserGroup(g, {
    members: await store.listDirectMemberIds(db, g.id, true),
    subgroups: await store.listDirectSubgroupIds(db, g.id),
    settings,
    inactive,
  });
}

/**
 * Every group of a realm as clients see it, from three realm-wide queries (GET /user_groups and
 * register's realm_user_groups). Deactivated groups only when asked for.
 */
export async function realmGroupObjects(db: Db, realmId: number, includeDeactivated: boolean) {
  const groups = await store.listUserGroups(db, realmId, includeDeactivated);
  const members = new Map<number, number[]>(groups.map((g) => [g.id, []]));
  const subgroups = new Map<number, number[]>(groups.map((g) => [g.id, []]));
  for (const { g, u } of await store.listRealmMemberships(db, realmId)) members.get(g)?.push(u);
  for (const { g, s } of await store.listRealmSubgroupLinks(db, realmId)) subgroups.get(g)?.push(s);
  const inactive = await listInactiveUserIds(db, realmId);
  return await mapInOrder(groups, async (g) =>
    toApiUserGroup(g, {
      members: members.get(g.id)!,
      subgroups: subgroups.get(g.id)!,
      settings: Object.fromEntries(await mapInOrder(USER_GROUP_PERMISSION_NAMES, async (n) => [n, await userGroupSetting(db, g, n)])) as Record<
        UserGroupPermission,
        GroupSettingValue
      >,
      inactive,
    }),
  );
}
