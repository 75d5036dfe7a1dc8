// One state builder per event type that register can fetch (Zulip's fetch_event_types names).
// A type whose feature has not landed yet answers its valid empty state.
import type { StateBuilder } from "./types";
import { realmState } from "./realm";
import { realmUserState } from "./realm-user";
import { userGroupsState } from "./user-groups";
import { realmDomainsState } from "./realm-domains";
import { realmUserSettingsDefaultsState, userSettingsState } from "./user-settings";
import { alertWordsState } from "./alert-words";
import { mutedUsersState } from "./muted-users";
import { userStatusState } from "./user-status";
import { profileFieldsState } from "./profile-fields";
import { draftsState } from "./drafts";
import { realmPlaygroundsState } from "./realm-playgrounds";
import { remindersState, scheduledMessagesState } from "./scheduled-messages";
import { savedSnippetsState } from "./saved-snippets";
import { navigationViewsState } from "./navigation-views";
import { botsState } from "./bots";
import { presenceState } from "./presence";
import { linkifiersState } from "./linkifiers";
import { realmEmojiState } from "./realm-emoji";
import { subscriptionState } from "./subscription";
import { defaultStreamsState, streamState } from "./stream";
import { channelFoldersState } from "./channel-folders";
import { mutedTopicsState, userTopicState } from "./user-topic";
import { messageState } from "./message";
import { recentPrivateConversationsState, starredMessagesState, updateMessageFlagsState } from "./update-message-flags";
import { STOP_WORDS } from "../../domain/narrow";
import { devicesState } from "./devices";
import { extSecretsState } from "./ext-secrets";
import { integrationsState } from "./integrations";
import { extAgentRunsState } from "./ext-agent-runs";
import { extPluginsState } from "./ext-plugins";
import { extWidgetPreferencesState, extWidgetsState } from "./ext-widgets";

const empty =
  (state: Record<string, unknown>): StateBuilder =>
  () =>
    structuredClone(state);

export const STATE_BUILDERS: Record<string, StateBuilder> = {
  realm: realmState,
  realm_user: realmUserState,
  alert_words: alertWordsState,
  custom_profile_fields: profileFieldsState,
  device: devicesState,
  drafts: draftsState,
  message: messageState,
  muted_topics: mutedTopicsState,
  muted_users: mutedUsersState,
  presence: presenceState,
  realm_domains: realmDomainsState,
  realm_emoji: realmEmojiState,
  realm_linkifiers: linkifiersState,
  realm_filters: empty({ realm_filters: [] }),
  realm_playgrounds: realmPlaygroundsState,
  realm_user_groups: userGroupsState,
  realm_bot: botsState,
  realm_embedded_bots: empty({ realm_embedded_bots: [] }),
  realm_incoming_webhook_bots: integrationsState,
  recent_private_conversations: recentPrivateConversationsState,
  navigation_views: navigationViewsState,
  saved_snippets: savedSnippetsState,
  scheduled_messages: scheduledMessagesState,
  reminders: remindersState,
  subscription: subscriptionState,
  update_message_flags: updateMessageFlagsState,
  starred_messages: starredMessagesState,
  stream: streamState,
  default_streams: defaultStreamsState,
  default_stream_groups: empty({ realm_default_stream_groups: [] }),
  stop_words: empty({ stop_words: STOP_WORDS }),
  user_settings: userSettingsState,
  realm_user_settings_defaults: realmUserSettingsDefaultsState,
  user_status: userStatusState,
  user_topic: userTopicState,
  onboarding_steps: empty({ onboarding_steps: [] }),
  channel_folders: channelFoldersState,
  video_calls: empty({ has_zoom_token: false }),
  giphy: empty({ giphy_api_key: "" }),
  ext_secret: extSecretsState,
  ext_agent_run: extAgentRunsState,
  ext_plugin: extPluginsState,
  ext_widget: extWidgetsState,
  ext_widget_preference: extWidgetPreferencesState,
};

export type { StateBuilder, StateContext, RegisterOptions } from "./types";
