import { realmUrl } from "../../domain/realms";
import type { StateBuilder } from "./types";

/** The `realm` fetch type: the organization's settings and the server's limits. */
export const realmState: StateBuilder = ({ app, realm }) => {
  const url = realmUrl(app.config.externalUrl, realm.stringId);
  const l = app.config.limits;
  return {
    realm_name: realm.name,
    realm_description: realm.description,
    realm_date_created: realm.dateCreated,
    realm_url: url,
    realm_uri: url,
    realm_icon_url: `${url}/static/images/logo/confab-icon.svg`,
    realm_icon_source: "G",
    realm_empty_topic_display_name: "general chat",
    realm_topics_policy: "allow_empty_topic",
    realm_mandatory_topics: false,
    realm_password_auth_enabled: true,
    realm_email_auth_enabled: true,
    realm_push_notifications_enabled: false,
    realm_enable_spectator_access: false,
    realm_is_zephyr_mirror_realm: false,
    max_message_length: l.maxMessageLength,
    max_topic_length: l.maxTopicLength,
    max_stream_name_length: l.maxStreamNameLength,
    max_stream_description_length: l.maxStreamDescriptionLength,
    event_queue_longpoll_timeout_seconds: app.config.events.heartbeatSeconds + 30,
    development_environment: app.config.development,
    server_web_public_streams_enabled: true,
    server_presence_ping_interval_seconds: 60,
    server_presence_offline_threshold_seconds: 140,
    server_typing_started_expiry_period_milliseconds: 45000,
    server_typing_stopped_wait_period_milliseconds: 5000,
    server_typing_started_wait_period_milliseconds: 10000,
    password_min_length: 6,
    password_max_length: 100,
  };
};
