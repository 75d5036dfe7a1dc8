import { updateOwnSettings, updateRealmUserDefaults } from "../../actions/user-settings";
import { PATCHABLE_DEFAULT_NAMES, USER_SETTING_NAMES, USER_SETTINGS } from "../../domain/user-settings";
import { endpoint } from "../endpoint";
import { p } from "../../domain/params";
import { settingParam } from "./realm-settings";

const params = (names: readonly string[]) => Object.fromEntries(names.map((n) => [n, settingParam(USER_SETTINGS[n as keyof typeof USER_SETTINGS].kind)]));

/**
 * PATCH /settings, and its two older names: Zulip 5.0 (level 80) merged /settings/notifications and
 * /settings/display into it and keeps them as aliases (python-zulip-api's update_notification_settings).
 */
const ownSettings = (path: string) =>
  endpoint("PATCH", path, {
    params: {
      full_name: p.str().optional(),
      email: p.str().optional(),
      old_password: p.str().optional(),
      new_password: p.str().optional(),
      ...params(USER_SETTING_NAMES),
    },
    run: ({ app, realm, user, args, session }) => updateOwnSettings(app, realm, user, args as never, session?.id ?? null),
  });

export default [
  ownSettings("/settings"),
  ownSettings("/settings/notifications"),
  ownSettings("/settings/display"),
  endpoint("PATCH", "/realm/user_settings_defaults", {
    params: params(PATCHABLE_DEFAULT_NAMES),
    run: ({ app, realm, user, args }) => updateRealmUserDefaults(app, realm, user, args),
  }),
];
