import { channelEmailAddress } from "../../actions/channel-email";
import {
  addDefaultStream,
  archiveChannel,
  getStream,
  getStreamId,
  getStreams,
  getSubscribers,
  listTopics,
  removeDefaultStream,
  updateChannel,
} from "../../actions/channels";
import { deleteTopic } from "../../actions/message-edits";
import { createChannel } from "../../actions/subscriptions";
import { CHANNEL_PERMISSION_NAMES, TOPICS_POLICIES, type ChannelPermission } from "../../domain/channels";
import type { GroupSettingValue } from "../../domain/group-settings";
import { endpoint } from "../endpoint";
import { badValue } from "../../domain/errors";
import { Param, p, t } from "../../domain/params";
import { groupSettingChange, groupSettingValue } from "./user-groups";

/** message_retention_days: days, or "realm_default" / "unlimited" (plain or as JSON text; "forever" before level 91). */
const retentionParam = () =>
  new Param<number | "realm_default" | "unlimited">((raw, n) => {
    const s = String(raw).replace(/^"(.*)"$/, "$1");
    if (s === "realm_default" || s === "unlimited") return s;
    if (s === "forever") return "unlimited";
    if (/^\d+$/.test(s) && Number(s) > 0) return Number(s);
    throw badValue(n, s);
  }, "string or integer");

const settingParams = <T>(param: () => Param<T>, names: readonly ChannelPermission[] = CHANNEL_PERMISSION_NAMES) =>
  Object.fromEntries(names.map((n) => [n, param().optional()])) as Record<ChannelPermission, Param<T | undefined>>;
export const pickChannelSettings = <T>(args: Record<string, unknown>) =>
  Object.fromEntries(CHANNEL_PERMISSION_NAMES.map((n) => [n, args[n]]).filter(([, v]) => v !== undefined)) as Partial<Record<ChannelPermission, T>>;

/** The permissions Zulip's file lists on channel endpoints (it predates can_create_topic_group). */
export const ZULIP_CHANNEL_PERMISSIONS = CHANNEL_PERMISSION_NAMES.filter((n) => n !== "can_create_topic_group");

/** Parameters shared by the two ways of creating channels (can_create_topic_group: only the contract's create). */
export const creationParams = (settings: readonly ChannelPermission[] = CHANNEL_PERMISSION_NAMES) => ({
  announce: p.bool().optional(false),
  invite_only: p.bool().optional(false),
  is_web_public: p.bool().optional(false),
  is_default_stream: p.bool().optional(false),
  history_public_to_subscribers: p.bool().optional(),
  message_retention_days: retentionParam().optional(),
  topics_policy: p.enum(TOPICS_POLICIES).optional(),
  folder_id: p.json(t.nullable(t.int())).optional(),
  send_new_subscription_messages: p.bool().optional(true),
  ...settingParams(() => p.json(groupSettingValue), settings),
});

export default [
  endpoint("POST", "/channels/create", {
    params: { name: p.str(), description: p.str().optional(""), subscribers: p.intList(), ...creationParams() },
    run: ({ app, realm, user, args }) => createChannel(app, realm, user, { ...args, settings: pickChannelSettings<GroupSettingValue>(args) }),
  }),
  endpoint("GET", "/streams", {
    params: {
      include_public: p.bool().optional(true),
      include_web_public: p.bool().optional(false),
      include_subscribed: p.bool().optional(true),
      exclude_archived: p.bool().optional(true),
      include_all_active: p.bool().optional(false),
      include_all: p.bool().optional(false),
      include_default: p.bool().optional(false),
      include_owner_subscribed: p.bool().optional(false),
      include_can_access_content: p.bool().optional(false),
    },
    run: ({ app, realm, user, args }) => getStreams(app, realm, user, args),
  }),
  endpoint("GET", "/streams/{stream_id}", {
    params: { stream_id: p.path.int() },
    run: ({ app, realm, user, args }) => getStream(app, realm, user, args.stream_id),
  }),
  endpoint("PATCH", "/streams/{stream_id}", {
    params: {
      stream_id: p.path.int(),
      description: p.str().optional(),
      new_name: p.str().optional(),
      is_private: p.bool().optional(),
      is_web_public: p.bool().optional(),
      history_public_to_subscribers: p.bool().optional(),
      is_default_stream: p.bool().optional(),
      message_retention_days: retentionParam().optional(),
      is_archived: p.bool().optional(),
      folder_id: p.json(t.nullable(t.int())).optional(),
      topics_policy: p.enum(TOPICS_POLICIES).optional(),
      ...settingParams(() => p.json(groupSettingChange), ZULIP_CHANNEL_PERMISSIONS),
    },
    run: ({ app, realm, user, args }) =>
      updateChannel(app, realm, user, args.stream_id, {
        ...args,
        settings: Object.fromEntries(Object.entries(pickChannelSettings<{ new: GroupSettingValue }>(args)).map(([k, v]) => [k, v!.new])),
      }),
  }),
  endpoint("DELETE", "/streams/{stream_id}", {
    params: { stream_id: p.path.int() },
    run: ({ app, realm, user, args }) => archiveChannel(app, realm, user, args.stream_id),
  }),
  endpoint("GET", "/get_stream_id", {
    params: { stream: p.str() },
    run: ({ app, user, args }) => getStreamId(app, user, args.stream),
  }),
  endpoint("GET", "/streams/{stream_id}/email_address", {
    params: { stream_id: p.path.int(), sender_id: p.int({ min: 0 }).optional() },
    run: ({ app, user, args }) => channelEmailAddress(app, user, args.stream_id, args.sender_id),
  }),
  endpoint("GET", "/streams/{stream_id}/members", {
    params: { stream_id: p.path.int() },
    run: ({ app, user, args }) => getSubscribers(app, user, args.stream_id),
  }),
  endpoint("GET", "/users/me/{stream_id}/topics", {
    params: { stream_id: p.path.int(), allow_empty_topic_name: p.bool().optional(false) },
    run: ({ app, user, args }) => listTopics(app, user, args.stream_id, args.allow_empty_topic_name),
  }),
  endpoint("POST", "/streams/{stream_id}/delete_topic", {
    params: { stream_id: p.path.int(), topic_name: p.str() },
    run: ({ app, realm, user, args }) => deleteTopic(app, realm, user, args.stream_id, args.topic_name),
  }),
  endpoint("POST", "/default_streams", {
    params: { stream_id: p.int() },
    run: ({ app, realm, user, args }) => addDefaultStream(app, realm, user, args.stream_id),
  }),
  endpoint("DELETE", "/default_streams", {
    params: { stream_id: p.int() },
    run: ({ app, realm, user, args }) => removeDefaultStream(app, realm, user, args.stream_id),
  }),
];
