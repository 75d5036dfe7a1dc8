import { GIPHY_RATINGS, realmSetting, REALM_SETTING_NAMES, REALM_SETTINGS, VIDEO_CHAT_PROVIDERS, type RealmSettingName } from "../../domain/realm-settings";
import { MAX_CHANNEL_FOLDER_DESCRIPTION_LENGTH, MAX_CHANNEL_FOLDER_NAME_LENGTH } from "../../domain/channel-folders";
import { presentGroupSetting, SYSTEM_GROUP } from "../../domain/group-settings";
import type { App } from "../../context";
import type { RealmRow } from "../../db/schema";
import { systemGroupIds } from "../../store/user-groups";
import { PRESENCE_OFFLINE_THRESHOLD_SECS, PRESENCE_PING_INTERVAL_SECS } from "../../domain/presence";
import { emojiDataPath, realmIconUrl, realmUrl, STATIC_IMAGES } from "../../domain/realms";
import { emojiDataDocument } from "../../render";
import { realmGroupSetting } from "../../store/realm-settings";
import { listInactiveUserIds } from "../../store/users";
import type { StateBuilder } from "./types";

/** Zulip's older enum for can_mention_many_users_group (still required by zulip-flutter): the system
 * group it names, or 1 (everyone, a superset) for any other group. */
const WILDCARD_MENTION_POLICY: Record<string, number> = {
  [SYSTEM_GROUP.everyone]: 1,
  [SYSTEM_GROUP.internet]: 1,
  [SYSTEM_GROUP.members]: 2,
  [SYSTEM_GROUP.fullMembers]: 3,
  [SYSTEM_GROUP.owners]: 5,
  [SYSTEM_GROUP.administrators]: 5,
  [SYSTEM_GROUP.nobody]: 6,
  [SYSTEM_GROUP.moderators]: 7,
};

async function wildcardMentionPolicy(app: App, realm: RealmRow): Promise<number> {
  const setting = await realmGroupSetting(app.db, realm, "can_mention_many_users_group");
  const name = Object.entries(await systemGroupIds(app.db, realm.id)).find(([, id]) => id === setting)?.[0];
  return (name && WILDCARD_MENTION_POLICY[name]) || 1;
}

/** The `realm` fetch type: every organization setting as realm_<name> (domain/realm-settings.ts), then
 * what the server decides (URLs, authentication, limits). */
export const realmState: StateBuilder = async ({ app, realm }) => {
  const url = realmUrl(app.config.externalUrl, realm.stringId);
  const l = app.config.limits;
  const inactive = await listInactiveUserIds(app.db, realm.id);
  const settings: Record<string, unknown> = {};
  for (const name of REALM_SETTING_NAMES) {
    const def = REALM_SETTINGS[name];
    settings[`realm_${name}`] =
      def.kind.t === "group" ? presentGroupSetting(await realmGroupSetting(app.db, realm, name as never), inactive) : realmSetting(realm, name as never);
  }
  const value = (n: RealmSettingName) => settings[`realm_${n}`];
  return {
    ...settings,
    // Older names for settings that are now spelled differently.
    realm_allow_edit_history: value("message_edit_history_visibility_policy") !== "none",
    realm_mandatory_topics: value("topics_policy") === "disable_empty_topic",
    realm_wildcard_mention_policy: await wildcardMentionPolicy(app, realm),
    realm_date_created: realm.dateCreated,
    realm_url: url,
    realm_uri: url,
    realm_icon_url: realmIconUrl(realm, app.config.externalUrl),
    realm_icon_source: realm.iconSource,
    realm_logo_url: url + STATIC_IMAGES.logo,
    realm_logo_source: "D",
    realm_night_logo_url: url + STATIC_IMAGES.logo,
    realm_night_logo_source: "D",
    realm_bot_domain: new URL(url).hostname,
    realm_authentication_methods: { Email: { enabled: true, available: true }, Dev: { enabled: app.config.development, available: app.config.development } },
    realm_password_auth_enabled: true,
    realm_email_auth_enabled: true,
    realm_push_notifications_enabled: false,
    realm_push_notifications_enabled_end_timestamp: null,
    realm_presence_disabled: false,
    realm_is_zephyr_mirror_realm: false,
    realm_available_video_chat_providers: VIDEO_CHAT_PROVIDERS,
    realm_plan_type: 1,
    realm_default_external_accounts: {},
    settings_send_digest_emails: true,
    zulip_plan_is_not_limited: true,
    upgrade_text_for_wide_organization_logo: "",
    giphy_rating_options: GIPHY_RATINGS,
    max_icon_file_size_mib: 5,
    max_logo_file_size_mib: 5,
    max_avatar_file_size_mib: 5,
    max_file_upload_size_mib: l.maxFileUploadMib,
    max_topic_length: l.maxTopicLength,
    max_channel_folder_name_length: MAX_CHANNEL_FOLDER_NAME_LENGTH,
    max_channel_folder_description_length: MAX_CHANNEL_FOLDER_DESCRIPTION_LENGTH,
    development_environment: app.config.development,
    server_generation: Math.floor(Date.now() / 1000),
    server_web_public_streams_enabled: true,
    server_inline_image_preview: true,
    server_inline_url_embed_preview: false,
    server_avatar_changes_disabled: false,
    server_name_changes_disabled: false,
    server_needs_upgrade: false,
    server_can_summarize_topics: false,
    server_emoji_data_url: url + emojiDataPath(emojiDataDocument().hash),
    server_jitsi_server_url: "https://meet.jit.si",
    jitsi_server_url: "https://meet.jit.si",
    server_presence_ping_interval_seconds: PRESENCE_PING_INTERVAL_SECS,
    server_presence_offline_threshold_seconds: PRESENCE_OFFLINE_THRESHOLD_SECS,
    server_typing_started_expiry_period_milliseconds: 45000,
    server_typing_stopped_wait_period_milliseconds: 5000,
    server_typing_started_wait_period_milliseconds: 10000,
    password_min_length: 6,
    password_max_length: 100,
    password_min_guesses: 0,
  };
};
