import { ownSettingsParams, updateOwnSettings, updateRealmUserDefaults, userDefaultsParams } from "../../actions/user-settings";
import { endpoint } from "../endpoint";

/**
 * PATCH /settings, and its two older names: Zulip 5.0 (level 80) merged /settings/notifications and
 * /settings/display into it and keeps them as aliases (python-zulip-api's update_notification_settings).
 */
const ownSettings = (path: string) =>
  endpoint("PATCH", path, {
    params: ownSettingsParams,
    run: ({ app, realm, user, args, session }) => updateOwnSettings(app, realm, user, args, session?.id ?? null),
  });

export default [
  ownSettings("/settings"),
  ownSettings("/settings/notifications"),
  ownSettings("/settings/display"),
  endpoint("PATCH", "/realm/user_settings_defaults", {
    params: userDefaultsParams,
    run: ({ app, realm, user, args }) => updateRealmUserDefaults(app, realm, user, args),
  }),
];
