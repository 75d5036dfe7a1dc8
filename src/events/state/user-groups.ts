import { USER_GROUP_PERMISSION_NAMES, type GroupSettingValue, type UserGroupPermission } from "../../domain/group-settings";
import { toApiUserGroup } from "../../domain/user-groups";
import { userGroupSetting } from "../../store/permissions";
import { listRealmMemberships, listRealmSubgroupLinks, listUserGroups } from "../../store/user-groups";
import { listInactiveUserIds } from "../../store/users";
import type { StateBuilder } from "./types";

/**
 * `realm_user_groups`: every group with its direct members and subgroups, from three realm-wide queries.
 * Without include_deactivated_groups a client gets only active groups (level 294).
 */
export const userGroupsState: StateBuilder = ({ app, realm, opts }) => {
  const db = app.db;
  const groups = listUserGroups(db, realm.id, opts.capabilities.include_deactivated_groups === true);
  const members = new Map<number, number[]>(groups.map((g) => [g.id, []]));
  const subgroups = new Map<number, number[]>(groups.map((g) => [g.id, []]));
  for (const { g, u } of listRealmMemberships(db, realm.id)) members.get(g)?.push(u);
  for (const { g, s } of listRealmSubgroupLinks(db, realm.id)) subgroups.get(g)?.push(s);
  const inactive = listInactiveUserIds(db, realm.id);
  return {
    realm_user_groups: groups.map((g) =>
      toApiUserGroup(g, {
        members: members.get(g.id)!,
        subgroups: subgroups.get(g.id)!,
        settings: Object.fromEntries(USER_GROUP_PERMISSION_NAMES.map((n) => [n, userGroupSetting(db, g, n)])) as Record<UserGroupPermission, GroupSettingValue>,
        inactive,
      }),
    ),
  };
};
