// A user's own settings as register's user_settings shows them.
import type { UserRow } from "../db/schema";
import { allSettings, USER_SETTINGS, type UserSettingName } from "../domain/user-settings";

/** The `user_settings` register state of a user. */
export const ownSettingsState = (user: UserRow) => allSettings({ ...user.settings, timezone: user.timezone }, Object.keys(USER_SETTINGS) as UserSettingName[]);
