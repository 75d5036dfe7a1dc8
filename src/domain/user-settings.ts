// Every personal setting once: its type (with enumerated values) and default. This table drives
// PATCH /settings and PATCH /realm/user_settings_defaults (parameters and validation), the `user_settings`
// and `realm_user_settings_defaults` register state and their update events. users.settings and the
// realm's defaults store only values that differ from these defaults.
import type { UserRow } from "../db/schema";
import type { SettingKind } from "./realm-settings";

export interface UserSettingDef {
  kind: SettingKind;
  default: unknown;
  /** false: a personal setting with no organization default (timezone). */
  realmDefault: boolean;
}

const bool = (def: boolean): UserSettingDef => ({ kind: { t: "bool" }, default: def, realmDefault: true });
const oneOf = (def: number, values: readonly number[]): UserSettingDef => ({ kind: { t: "int", values }, default: def, realmDefault: true });
const int = (def: number, min: number, max: number): UserSettingDef => ({ kind: { t: "int", min, max }, default: def, realmDefault: true });
const str = (def: string, values?: readonly string[], max = 100): UserSettingDef => ({
  kind: { t: "str", values, max, nonEmpty: !values },
  default: def,
  realmDefault: true,
});

const FOLLOW_POLICY = [1, 2, 3, 4] as const;
export const EMOJISETS = [
  { key: "google", text: "Google" },
  { key: "twitter", text: "Twitter" },
  { key: "text", text: "Plain text" },
] as const;
export const NOTIFICATION_SOUNDS = ["zulip", "ding", "bell", "chime", "chord"] as const;

export const USER_SETTINGS = {
  // Display settings
  twenty_four_hour_time: bool(false),
  web_mark_read_on_scroll_policy: oneOf(1, [1, 2, 3]),
  web_channel_default_view: oneOf(1, [1, 2, 3, 4]),
  starred_message_counts: bool(true),
  receives_typing_notifications: bool(true),
  web_suggest_update_timezone: bool(true),
  fluid_layout_width: bool(false),
  high_contrast_mode: bool(false),
  web_font_size_px: int(16, 8, 100),
  web_line_height_percent: int(140, 50, 300),
  color_scheme: oneOf(1, [1, 2, 3]),
  translate_emoticons: bool(false),
  display_emoji_reaction_users: bool(true),
  default_language: str("en", undefined, 50),
  web_home_view: str("inbox", ["recent", "inbox", "all_messages", "recent_topics"]),
  web_escape_navigates_to_home_view: bool(true),
  left_side_userlist: bool(false),
  emojiset: str(
    "google",
    EMOJISETS.map((e) => e.key),
  ),
  demote_inactive_streams: oneOf(1, [1, 2, 3]),
  user_list_style: oneOf(2, [1, 2, 3]),
  web_animate_image_previews: str("on_hover", ["always", "on_hover", "never"]),
  web_stream_unreads_count_display_policy: oneOf(2, [1, 2, 3]),
  hide_ai_features: bool(false),
  web_inbox_show_channel_folders: bool(true),
  web_left_sidebar_show_channel_folders: bool(true),
  web_left_sidebar_unreads_count_summary: bool(true),
  timezone: { kind: { t: "str", max: 40 }, default: "", realmDefault: false } as UserSettingDef,
  enter_sends: bool(false),
  enable_drafts_synchronization: bool(true),
  // Notification settings
  enable_stream_desktop_notifications: bool(false),
  enable_stream_email_notifications: bool(false),
  enable_stream_push_notifications: bool(false),
  enable_stream_audible_notifications: bool(false),
  notification_sound: str("zulip"),
  enable_desktop_notifications: bool(true),
  enable_sounds: bool(true),
  enable_followed_topic_desktop_notifications: bool(true),
  enable_followed_topic_email_notifications: bool(true),
  enable_followed_topic_push_notifications: bool(true),
  enable_followed_topic_audible_notifications: bool(true),
  email_notifications_batching_period_seconds: { kind: { t: "int" }, default: 120, realmDefault: true } as UserSettingDef,
  enable_offline_email_notifications: bool(true),
  enable_offline_push_notifications: bool(true),
  enable_online_push_notifications: bool(true),
  enable_digest_emails: bool(true),
  enable_marketing_emails: bool(true),
  enable_login_emails: bool(true),
  message_content_in_email_notifications: bool(true),
  pm_content_in_desktop_notifications: bool(true),
  wildcard_mentions_notify: bool(true),
  enable_followed_topic_wildcard_mentions_notify: bool(true),
  desktop_icon_count_display: oneOf(1, [1, 2, 3, 4]),
  realm_name_in_email_notifications_policy: oneOf(1, [1, 2, 3]),
  automatically_follow_topics_policy: oneOf(3, FOLLOW_POLICY),
  automatically_unmute_topics_in_muted_streams_policy: oneOf(2, FOLLOW_POLICY),
  automatically_follow_topics_where_mentioned: bool(true),
  resolved_topic_notice_auto_read_policy: str("except_followed", ["always", "except_followed", "never"]),
  presence_enabled: bool(true),
  // Privacy settings
  send_private_typing_notifications: bool(true),
  send_stream_typing_notifications: bool(true),
  send_read_receipts: bool(true),
  allow_private_data_export: bool(false),
  email_address_visibility: oneOf(1, [1, 2, 3, 4, 5]),
  web_navigate_to_sent_message: bool(true),
} satisfies Record<string, UserSettingDef>;

export type UserSettingName = keyof typeof USER_SETTINGS;
export const USER_SETTING_NAMES = Object.keys(USER_SETTINGS) as UserSettingName[];
export const REALM_DEFAULT_NAMES = USER_SETTING_NAMES.filter((n) => USER_SETTINGS[n].realmDefault);
/** Defaults register shows but PATCH /realm/user_settings_defaults does not change, as in Zulip: the
 * language comes from the realm's own default_language (PATCH /realm); the others stay at the table's. */
const FIXED_DEFAULTS: readonly UserSettingName[] = ["default_language", "enable_marketing_emails", "enable_login_emails", "allow_private_data_export"];
export const PATCHABLE_DEFAULT_NAMES = REALM_DEFAULT_NAMES.filter((n) => !FIXED_DEFAULTS.includes(n));

/** web_home_view's value for the recent conversations view was `recent_topics` before level 454. */
export const normalizeUserSetting = (name: string, value: unknown) => (name === "web_home_view" && value === "recent_topics" ? "recent" : value);

/** A user's value for one personal setting (e.g. `userSetting(user, "receives_typing_notifications")`). */
export function userSetting<N extends UserSettingName>(user: Pick<UserRow, "settings" | "timezone">, name: N): unknown {
  if (name === "timezone") return user.timezone;
  const v = user.settings[name];
  return v === undefined ? USER_SETTINGS[name].default : v;
}

/** Every setting with its value, from stored differences over the table's defaults. */
export function allSettings(stored: Record<string, unknown>, names: readonly UserSettingName[]): Record<string, unknown> {
  return Object.fromEntries(names.map((n) => [n, n in stored ? stored[n] : USER_SETTINGS[n].default]));
}

/** Constant choices register shows alongside the settings. */
export const settingChoices = () => ({
  available_notification_sounds: [...NOTIFICATION_SOUNDS],
  emojiset_choices: EMOJISETS.map((e) => ({ ...e })),
});
