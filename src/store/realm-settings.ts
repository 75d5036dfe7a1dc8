import type { Db } from "../db/client";
import type { RealmRow } from "../db/schema";
import type { GroupSettingValue } from "../domain/group-settings";
import { REALM_SETTINGS, type RealmGroupSettingName } from "../domain/realm-settings";
import { systemGroupIds } from "./user-groups";

/** A realm's group-setting value: the stored one, or the default system group resolved to its id. */
export async function realmGroupSetting(db: Db, realm: RealmRow, name: RealmGroupSettingName): Promise<GroupSettingValue> {
  const stored = realm.settings[name] as GroupSettingValue | undefined;
  if (stored !== undefined) return stored;
  return (await systemGroupIds(db, realm.id))[REALM_SETTINGS[name].default]!;
}
