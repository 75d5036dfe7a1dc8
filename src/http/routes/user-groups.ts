import {
  createUserGroup,
  deactivateUserGroup,
  groupMembers,
  groupSubgroups,
  isGroupMember,
  listUserGroupsFor,
  subgroupsParams,
  updateGroupMembers,
  updateSubgroups,
  updateUserGroupProps,
} from "../../actions/user-groups";
import { USER_GROUP_PERMISSION_NAMES, type GroupSettingValue, type UserGroupPermission } from "../../domain/group-settings";
import { endpoint } from "../endpoint";
import { p, t, Param } from "../../domain/params";

/** A group-setting value in either form (contract: "Group-setting value"). */
export const groupSettingValue = t.union<GroupSettingValue>(t.int(), t.object({ direct_members: t.list(t.int()), direct_subgroups: t.list(t.int()) }));
/** A change of one: the new value and, optionally, the value the client believes is current. */
export const groupSettingChange = t.object({ new: groupSettingValue, old: t.optional(groupSettingValue) });

const settingParams = <T>(param: () => Param<T>) =>
  Object.fromEntries(USER_GROUP_PERMISSION_NAMES.map((n) => [n, param().optional()])) as Record<UserGroupPermission, Param<T | undefined>>;
const pick = <T>(args: Record<string, unknown>) =>
  Object.fromEntries(USER_GROUP_PERMISSION_NAMES.map((n) => [n, args[n]])) as Partial<Record<UserGroupPermission, T>>;

export default [
  endpoint("POST", "/user_groups/create", {
    params: {
      name: p.str(),
      description: p.str(),
      members: p.intList(),
      subgroups: p.intList().optional(() => []),
      ...settingParams(() => p.json(groupSettingValue)),
    },
    run: ({ app, realm, user, args }) => createUserGroup(app, realm, user, { ...args, settings: pick<GroupSettingValue>(args) }),
  }),
  endpoint("GET", "/user_groups", {
    params: { include_deactivated_groups: p.bool().optional(false) },
    run: ({ app, realm, user, args }) => listUserGroupsFor(app, realm, user, args.include_deactivated_groups),
  }),
  endpoint("PATCH", "/user_groups/{user_group_id}", {
    params: {
      user_group_id: p.path.int(),
      name: p.str().optional(),
      description: p.str().optional(),
      deactivated: p.bool().optional(),
      ...settingParams(() => p.json(groupSettingChange)),
    },
    run: ({ app, realm, user, args }) =>
      updateUserGroupProps(app, realm, user, args.user_group_id, { ...args, settings: pick<{ new: GroupSettingValue; old?: GroupSettingValue }>(args) }),
  }),
  endpoint("POST", "/user_groups/{user_group_id}/deactivate", {
    params: { user_group_id: p.path.int() },
    run: ({ app, realm, user, args }) => deactivateUserGroup(app, realm, user, args.user_group_id),
  }),
  endpoint("POST", "/user_groups/{user_group_id}/members", {
    params: {
      user_group_id: p.path.int(),
      add: p.intList().optional(() => []),
      delete: p.intList().optional(() => []),
      add_subgroups: p.intList().optional(() => []),
      delete_subgroups: p.intList().optional(() => []),
    },
    run: ({ app, realm, user, args }) => updateGroupMembers(app, realm, user, args.user_group_id, args),
  }),
  endpoint("GET", "/user_groups/{user_group_id}/members", {
    params: { user_group_id: p.path.int(), direct_member_only: p.bool().optional(false) },
    run: ({ app, realm, user, args }) => groupMembers(app, realm, user, args.user_group_id, args.direct_member_only),
  }),
  endpoint("GET", "/user_groups/{user_group_id}/members/{user_id}", {
    params: { user_group_id: p.path.int(), user_id: p.path.int(), direct_member_only: p.bool().optional(false) },
    run: ({ app, realm, user, args }) => isGroupMember(app, realm, user, args.user_group_id, args.user_id, args.direct_member_only),
  }),
  endpoint("POST", "/user_groups/{user_group_id}/subgroups", {
    params: { user_group_id: p.path.int(), ...subgroupsParams },
    run: ({ app, realm, user, args }) => updateSubgroups(app, realm, user, args.user_group_id, args),
  }),
  endpoint("GET", "/user_groups/{user_group_id}/subgroups", {
    params: { user_group_id: p.path.int(), direct_subgroup_only: p.bool().optional(false) },
    run: ({ app, realm, user, args }) => groupSubgroups(app, realm, user, args.user_group_id, args.direct_subgroup_only),
  }),
];
