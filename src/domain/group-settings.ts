// A group-setting value (contract: "Group-setting value"): a user group id, or an anonymous
// collection of users and groups. Every can_*_group setting of realms, user groups and channels holds one.
import {
  cannotBeSetTo,
  groupDeactivated,
  invalidUserGroup,
  invalidUserGroupId,
  invalidUserId,
  mustBeSystemUserGroup,
  userGroupNameCannotExceed,
  userGroupNameCannotStart,
  userGroupNameCantBeEmpty,
} from "./errors";

export type GroupSettingValue = number | { direct_members: number[]; direct_subgroups: number[] };
export type GroupMembersValue = Exclude<GroupSettingValue, number>;

/** System group names, as Zulip spells them. */
export const SYSTEM_GROUP = {
  owners: "role:owners",
  administrators: "role:administrators",
  moderators: "role:moderators",
  fullMembers: "role:fullmembers",
  members: "role:members",
  everyone: "role:everyone",
  internet: "role:internet",
  nobody: "role:nobody",
} as const;
export type SystemGroupName = (typeof SYSTEM_GROUP)[keyof typeof SYSTEM_GROUP];

/**
 * How one permission setting may be set. `allow*` false refuses that system group as the (integer)
 * value; `allowEveryone` false also means guests never hold the permission, whatever the value says.
 * `default` names a system group, or "creator" for an anonymous value holding the group's creator.
 */
export interface PermissionConfig {
  allowInternet: boolean;
  allowOwners: boolean;
  allowNobody: boolean;
  allowEveryone: boolean;
  requireSystemGroup: boolean;
  /** When set, only these system groups are accepted. */
  allowedSystemGroups?: readonly SystemGroupName[];
  default: SystemGroupName | "creator";
  /** The default on system groups, which have no creator. */
  defaultForSystemGroups?: SystemGroupName;
}

export const permission = (c: Partial<PermissionConfig> & Pick<PermissionConfig, "default">): PermissionConfig => ({
  allowInternet: false,
  allowOwners: true,
  allowNobody: true,
  allowEveryone: false,
  requireSystemGroup: false,
  ...c,
});

/** The permission settings of a user group (contract: "User group"), in Zulip's field order. */
export const USER_GROUP_PERMISSIONS = {
  can_add_members_group: permission({ default: "creator", defaultForSystemGroups: "role:nobody" }),
  can_join_group: permission({ default: "role:nobody", defaultForSystemGroups: "role:nobody" }),
  can_leave_group: permission({ allowEveryone: true, default: "role:everyone", defaultForSystemGroups: "role:nobody" }),
  can_manage_group: permission({ default: "creator", defaultForSystemGroups: "role:nobody" }),
  can_mention_group: permission({ allowEveryone: true, allowOwners: false, default: "role:everyone", defaultForSystemGroups: "role:nobody" }),
  can_remove_members_group: permission({ default: "role:nobody", defaultForSystemGroups: "role:nobody" }),
} satisfies Record<string, PermissionConfig>;
export type UserGroupPermission = keyof typeof USER_GROUP_PERMISSIONS;
export const USER_GROUP_PERMISSION_NAMES = Object.keys(USER_GROUP_PERMISSIONS) as UserGroupPermission[];

/** What validation needs to know about the groups and users a value names. */
export interface GroupSettingLookup {
  group(id: number): Promise<{ id: number; name: string; isSystemGroup: boolean; deactivated: boolean } | undefined>;
  /** Whether the id is an active user of the realm. */
  activeUser(id: number): Promise<boolean>;
  nobodyGroupId: number;
}

/**
 * Zulip's canonical form: an object naming exactly one group and no users is that group's id, and an
 * empty object is role:nobody. Member and subgroup ids are deduplicated and sorted.
 */
export function canonicalGroupSetting(v: GroupSettingValue, nobodyGroupId: number): GroupSettingValue {
  if (typeof v === "number") return v;
  const direct_members = [...new Set(v.direct_members)].sort((a, b) => a - b);
  const direct_subgroups = [...new Set(v.direct_subgroups)].sort((a, b) => a - b);
  if (!direct_members.length && direct_subgroups.length === 1) return direct_subgroups[0]!;
  if (!direct_members.length && !direct_subgroups.length) return nobodyGroupId;
  return { direct_members, direct_subgroups };
}

/**
 * Checks a value for one setting and returns its canonical form, or throws Zulip's error: unknown or
 * deactivated groups, users who are not active in the realm, and the system groups the setting refuses.
 */
export async function checkGroupSetting(
  setting: string,
  value: GroupSettingValue,
  config: PermissionConfig,
  lookup: GroupSettingLookup,
): Promise<GroupSettingValue> {
  const v = canonicalGroupSetting(value, lookup.nobodyGroupId);
  if (typeof v === "number") {
    const g = await lookup.group(v);
    if (!g) throw invalidUserGroup();
    if (g.deactivated) throw groupDeactivated();
    checkSystemGroupRules(setting, g, config);
    return v;
  }
  if (config.requireSystemGroup) throw mustBeSystemUserGroup(setting);
  for (const id of v.direct_members) if (!(await lookup.activeUser(id))) throw invalidUserId(id);
  for (const id of v.direct_subgroups) {
    const g = await lookup.group(id);
    if (!g) throw invalidUserGroupId(id);
    if (g.deactivated) throw groupDeactivated();
  }
  return v;
}

function checkSystemGroupRules(setting: string, g: { name: string; isSystemGroup: boolean }, c: PermissionConfig) {
  if (c.requireSystemGroup && !g.isSystemGroup) throw mustBeSystemUserGroup(setting);
  if (!g.isSystemGroup) return;
  if (!c.allowInternet && g.name === SYSTEM_GROUP.internet) throw cannotBeSetTo(setting, g.name);
  if (!c.allowOwners && g.name === SYSTEM_GROUP.owners) throw cannotBeSetTo(setting, g.name);
  if (!c.allowNobody && g.name === SYSTEM_GROUP.nobody) throw cannotBeSetTo(setting, g.name);
  if (!c.allowEveryone && g.name === SYSTEM_GROUP.everyone) throw cannotBeSetTo(setting, g.name);
  if (c.allowedSystemGroups && !c.allowedSystemGroups.includes(g.name as SystemGroupName)) throw cannotBeSetTo(setting, g.name);
}

/** Whether two values name the same collection (order-insensitive). */
export function sameGroupSetting(a: GroupSettingValue, b: GroupSettingValue): boolean {
  if (typeof a === "number" || typeof b === "number") return a === b;
  const eq = (x: number[], y: number[]) => x.length === y.length && [...x].sort().join() === [...y].sort().join();
  return eq(a.direct_members, b.direct_members) && eq(a.direct_subgroups, b.direct_subgroups);
}

/** The value as clients see it: deactivated users are no longer listed as direct members (level 303). */
export function presentGroupSetting(v: GroupSettingValue, inactive: ReadonlySet<number>): GroupSettingValue {
  if (typeof v === "number" || !inactive.size) return v;
  return { direct_members: v.direct_members.filter((id) => !inactive.has(id)), direct_subgroups: v.direct_subgroups };
}

/** User group names Zulip refuses: blank, too long, or starting with a reserved prefix. */
export const MAX_GROUP_NAME_LENGTH = 100;
const RESERVED_PREFIXES = ["@", "role:", "user:", "stream:", "channel:"];
export function checkGroupName(name: string): string {
  if (!name.trim()) throw userGroupNameCantBeEmpty();
  if ([...name].length > MAX_GROUP_NAME_LENGTH) throw userGroupNameCannotExceed(MAX_GROUP_NAME_LENGTH);
  const prefix = RESERVED_PREFIXES.find((p) => name.startsWith(p));
  if (prefix) throw userGroupNameCannotStart(prefix);
  return name;
}
