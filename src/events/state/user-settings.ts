import { ownSettingsState } from "../../serializers/user-settings";
import { realmSetting } from "../../domain/realm-settings";
import { allSettings, REALM_DEFAULT_NAMES, settingChoices } from "../../domain/user-settings";
import { findRealmUserDefaults } from "../../store/user-settings";
import type { StateBuilder } from "./types";

/** `user_settings`: the caller's personal settings (a spectator has none). */
export const userSettingsState: StateBuilder = ({ user }) => (user ? { user_settings: { ...ownSettingsState(user), ...settingChoices() } } : {});

/** `realm_user_settings_defaults`: what new users of the organization start with. */
export const realmUserSettingsDefaultsState: StateBuilder = async ({ app, realm }) => ({
  realm_user_settings_defaults: {
    ...allSettings(await findRealmUserDefaults(app.db, realm.id), REALM_DEFAULT_NAMES),
    default_language: realmSetting(realm, "default_language"),
    ...settingChoices(),
  },
});
