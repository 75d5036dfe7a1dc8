// A group-setting value (contract: "Group-setting value"): a user group id, or an anonymous
// collection of users and groups.
export type GroupSettingValue = number | { direct_members: number[]; direct_subgroups: number[] };

export const isGroupId = (v: GroupSettingValue): v is number => typeof v === "number";
