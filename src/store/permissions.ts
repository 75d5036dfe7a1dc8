// The one permission engine: every can_*_group check in confab asks `inGroupSetting`.
import type { Db } from "../db/client";
import type { UserRow } from "../db/schema";
import type { GroupSettingValue } from "../domain/group-settings";
import { isUserInGroup } from "./user-groups";

/** Is this user in the group-setting value (system groups, nested subgroups; deactivated users never)? */
export function inGroupSetting(db: Db, user: UserRow, value: GroupSettingValue): boolean {
  if (!user.isActive) return false;
  if (typeof value === "number") return isUserInGroup(db, user.id, value);
  if (value.direct_members.includes(user.id)) return true;
  return value.direct_subgroups.some((g) => isUserInGroup(db, user.id, g));
}
