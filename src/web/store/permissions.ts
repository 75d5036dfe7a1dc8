// Whether I hold an organization permission: its group-setting value (realm_<setting>) names a group
// (members of it or of its subgroups, at any depth) or an anonymous set of users and groups. The app
// shows a control only to those the server would allow; the server still checks every request.
import { me, realm, userGroups } from "./state";

type GroupSettingValue = number | { direct_members: number[]; direct_subgroups: number[] };

function inGroup(groupId: number, userId: number, seen = new Set<number>()): boolean {
  if (seen.has(groupId)) return false;
  seen.add(groupId);
  const g = userGroups.value.get(groupId);
  if (!g) return false;
  return g.members.includes(userId) || (g.direct_subgroup_ids ?? []).some((id) => inGroup(id, userId, seen));
}

export function holds(value: GroupSettingValue | undefined, userId = me.value.user_id): boolean {
  if (value === undefined || value === null) return false;
  if (typeof value === "number") return inGroup(value, userId);
  return value.direct_members.includes(userId) || value.direct_subgroups.some((id) => inGroup(id, userId));
}

/** e.g. `can("create_multiuse_invite_group")`. */
export const can = (setting: string) => holds(realm.value[`realm_${setting}`]);
