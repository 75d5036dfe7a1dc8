// Where the contract and Zulip's file disagree the contract wins: these are the fields the contract
// adds to Zulip's responses (its service_* names beside Zulip's zulip_* names). The validator merges
// them into the operation's schema before compiling, so a body with them still passes and a body with
// them misspelled or mistyped still fails.
type Schema = Record<string, any>;

const versionFields: Record<string, Schema> = {
  service_feature_level: { type: "integer" },
  service_version: { type: "string" },
  service_merge_base: { type: "string" },
};

/** A group-setting value: a group id, or an anonymous collection of users and groups. */
const groupSettingValue: Schema = {
  anyOf: [
    { type: "integer" },
    {
      type: "object",
      additionalProperties: false,
      required: ["direct_members", "direct_subgroups"],
      properties: { direct_members: { type: "array", items: { type: "integer" } }, direct_subgroups: { type: "array", items: { type: "integer" } } },
    },
  ],
};

/** register's extension state (docs/extensions.md); each item is checked by the /ext endpoint that lists it. */
const extState: Record<string, Schema> = {
  ext_secrets: { type: "array", items: { type: "object" } },
  ext_agent_runs: { type: "array", items: { type: "object" } },
  ext_plugins: { type: "array", items: { type: "object" } },
  ext_widgets: { type: "array", items: { type: "object" } },
  ext_widget_preferences: { type: "array", items: { type: "object" } },
};

/**
 * Zulip's own fields newer than the repository's copy of its file, which an official client reads:
 * `devices` (the client devices of POST /register_client_device; zulip-flutter's InitialSnapshot).
 */
const newerZulipState: Record<string, Schema> = {
  devices: { type: "object", additionalProperties: { type: "object" } },
};

/**
 * register's `reminders`: Zulip's file types its items as ScheduledMessage, but its server sends the
 * Reminder objects that GET /reminders and the `reminders` events carry (zerver/lib/events.py fetches
 * get_undelivered_reminders, i.e. to_reminder_dict), and Zulip's web app reads reminder_id from them.
 */
const reminder: Schema = {
  type: "object",
  additionalProperties: false,
  required: ["reminder_id", "type", "to", "content", "rendered_content", "scheduled_delivery_timestamp", "failed", "reminder_target_message_id"],
  properties: {
    reminder_id: { type: "integer" },
    type: { enum: ["private"] },
    to: { type: "array", items: { type: "integer" } },
    content: { type: "string" },
    rendered_content: { type: "string" },
    scheduled_delivery_timestamp: { type: "integer" },
    failed: { type: "boolean" },
    reminder_target_message_id: { type: "integer" },
  },
};

/** Keyed "method /template status". */
export const RESPONSE_ADDITIONS: Record<string, Record<string, Schema>> = {
  "get /server_settings 200": versionFields,
  "post /register 200": {
    ...versionFields,
    idle_queue_timeout_secs: { type: "integer" },
    ...newerZulipState,
    ...extState,
    realm_can_manage_plugins_group: groupSettingValue,
    reminders: { type: "array", items: reminder },
  },
  // A topic's workspace (docs/extensions.md): Zulip's topic item plus workspace_uuid.
  "get /users/me/{stream_id}/topics 200": {
    topics: {
      type: "array",
      items: {
        type: "object",
        additionalProperties: false,
        properties: { max_id: { type: "integer" }, name: { type: "string" }, workspace_uuid: { type: "string" } },
        required: ["max_id", "name"],
      },
    },
  },
};

/**
 * Fields the contract adds to a component schema of Zulip's file, wherever that schema is used (keyed by
 * its $ref). The message object is one schema for GET /messages, GET /messages/{id} and message events.
 */
export const SCHEMA_ADDITIONS: Record<string, Record<string, Schema>> = {
  // Zulip renamed an integration URL option's `validator` to `input_type` at feature level 485 (the contract).
  "#/components/schemas/WebhookUrlOption_inner": { input_type: { type: "string" } },
  // The message event: the queue that sent it (with queue_id and local_id) gets local_message_id, as
  // POST /messages's queue_id parameter describes; the event schema itself does not list it.
  "#/components/schemas/get_events_200_response_allOf_events_inner_oneOf_10": { local_message_id: { type: "string" } },
  "#/components/schemas/MessagesBase": { is_agent_message: { type: "boolean" }, workspace_uuid: { type: "string" } },
  // The contract's user setting web_inbox_show_channel_folders (level 431) is newer than Zulip's file.
  "#/components/schemas/register_queue_200_response_allOf_user_settings": { web_inbox_show_channel_folders: { type: "boolean" } },
  "#/components/schemas/register_queue_200_response_allOf_realm_user_settings_defaults": { web_inbox_show_channel_folders: { type: "boolean" } },
  // confab's extension-layer organization setting (docs/extensions.md), in realm update_dict events.
  "#/components/schemas/get_events_200_response_allOf_events_inner_oneOf_67_data": { can_manage_plugins_group: groupSettingValue },
};
