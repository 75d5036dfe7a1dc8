import {
  createUserGroup,
  createUserGroupParams,
  deactivateUserGroup,
  groupMembers,
  groupSubgroups,
  isGroupMember,
  listUserGroupsFor,
  memberChangeParams,
  subgroupsParams,
  updateGroupMembers,
  updateSubgroups,
  updateUserGroupParams,
  updateUserGroupProps,
} from "../../actions/user-groups";
import { endpoint } from "../endpoint";
import { p } from "../../domain/params";

export default [
  endpoint("POST", "/user_groups/create", {
    params: createUserGroupParams,
    run: ({ app, realm, user, args }) => createUserGroup(app, realm, user, args),
  }),
  endpoint("GET", "/user_groups", {
    params: { include_deactivated_groups: p.bool().optional(false) },
    run: ({ app, realm, user, args }) => listUserGroupsFor(app, realm, user, args.include_deactivated_groups),
  }),
  endpoint("PATCH", "/user_groups/{user_group_id}", {
    params: { user_group_id: p.path.int(), ...updateUserGroupParams },
    run: ({ app, realm, user, args }) => updateUserGroupProps(app, realm, user, args.user_group_id, args),
  }),
  endpoint("POST", "/user_groups/{user_group_id}/deactivate", {
    params: { user_group_id: p.path.int() },
    run: ({ app, realm, user, args }) => deactivateUserGroup(app, realm, user, args.user_group_id),
  }),
  endpoint("POST", "/user_groups/{user_group_id}/members", {
    params: { user_group_id: p.path.int(), ...memberChangeParams },
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
