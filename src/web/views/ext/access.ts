// Who may see and do what in the extension layer, read from the store (the server enforces it anyway):
// guests and bots never see plugins; plugin managers are the realm's `can_manage_plugins_group`.
import { me, realm, userGroups } from "../../store/state";

const GUEST = 600;
const ADMIN = 200;

/** Members who are people: the ones the /ext pages are for. */
export const isHumanMember = () => !me.value.is_bot && (me.value.role ?? 400) < GUEST;
export const isAdmin = () => (me.value.role ?? 400) <= ADMIN;

/** Whether the user is in a group-setting value (a group id, or direct members and subgroups). */
export function inGroupSetting(value: unknown, userId = me.value.user_id): boolean {
  const seen = new Set<number>();
  const inGroup = (id: number): boolean => {
    if (seen.has(id)) return false;
    seen.add(id);
    const g = userGroups.value.get(id) as { members: number[]; direct_subgroup_ids?: number[] } | undefined;
    return !!g && (g.members.includes(userId) || (g.direct_subgroup_ids ?? []).some(inGroup));
  };
  if (typeof value === "number") return inGroup(value);
  const v = value as { direct_members?: number[]; direct_subgroups?: number[] } | null;
  return !!v && ((v.direct_members ?? []).includes(userId) || (v.direct_subgroups ?? []).some(inGroup));
}

export const canManagePlugins = () => isHumanMember() && inGroupSetting(realm.value.realm_can_manage_plugins_group);
