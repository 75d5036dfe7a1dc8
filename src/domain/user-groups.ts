import type { UserGroupRow } from "../db/schema";
import { presentGroupSetting, USER_GROUP_PERMISSION_NAMES, type GroupSettingValue, type UserGroupPermission } from "./group-settings";
import { alreadyMember, alreadySubgroup, groupExists, notForGuests, notMember, notSubgroup, subgroupCycle } from "./errors";

export interface UserGroupView {
  /** Active direct members, sorted. */
  members: number[];
  /** Direct subgroups, sorted. */
  subgroups: number[];
  settings: Record<UserGroupPermission, GroupSettingValue>;
  /** Deactivated users of the realm: left out of anonymous setting values. */
  inactive: ReadonlySet<number>;
}

/** The user group object (Zulip's UserGroup), one serializer for responses, events and register. */
export function toApiUserGroup(g: UserGroupRow, v: UserGroupView) {
  const out: Record<string, unknown> = {
    id: g.id,
    name: g.name,
    description: g.description,
    creator_id: g.creatorId ?? null,
    date_created: g.dateCreated ?? null,
    members: v.members,
    direct_subgroup_ids: v.subgroups,
    is_system_group: g.isSystemGroup,
    deactivated: g.deactivated,
  };
  for (const name of USER_GROUP_PERMISSION_NAMES) out[name] = presentGroupSetting(v.settings[name], v.inactive);
  return out;
}
