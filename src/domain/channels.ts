// Channels (Zulip's streams): permission settings, names, and the stream / subscription objects.
import { unprintableAt } from "../lib/text";
import type { ChannelRow, SubscriptionRow } from "../db/schema";
import { channelNameCantBeEmpty, channelNameTooLongLimit, invalidCharacterChannelNamePosition } from "./errors";
import { permission, presentGroupSetting, type GroupSettingValue, type PermissionConfig } from "./group-settings";

/** A channel's permission settings, in Zulip's field order (can_create_topic_group: contract, level 441). */
export const CHANNEL_PERMISSIONS = {
  can_add_subscribers_group: permission({ default: "role:nobody" }),
  can_remove_subscribers_group: permission({ default: "role:administrators", allowEveryone: true }),
  can_administer_channel_group: permission({ default: "creator" }),
  can_delete_any_message_group: permission({ default: "role:nobody" }),
  can_delete_own_message_group: permission({ default: "role:nobody", allowEveryone: true }),
  can_move_messages_out_of_channel_group: permission({ default: "role:nobody", allowEveryone: true }),
  can_move_messages_within_channel_group: permission({ default: "role:nobody", allowEveryone: true }),
  can_send_message_group: permission({ default: "role:everyone", allowEveryone: true }),
  can_subscribe_group: permission({ default: "role:nobody" }),
  can_resolve_topics_group: permission({ default: "role:nobody", allowEveryone: true }),
  can_create_topic_group: permission({ default: "role:everyone", allowEveryone: true }),
} satisfies Record<string, PermissionConfig>;
export type ChannelPermission = keyof typeof CHANNEL_PERMISSIONS;
export const CHANNEL_PERMISSION_NAMES = Object.keys(CHANNEL_PERMISSIONS) as ChannelPermission[];
/** The settings Zulip's stream object carries (its file predates can_create_topic_group). */
const SHOWN_PERMISSIONS = CHANNEL_PERMISSION_NAMES.filter((n) => n !== "can_create_topic_group");

export const TOPICS_POLICIES = ["inherit", "allow_empty_topic", "disable_empty_topic", "empty_topic_only"] as const;
export type TopicsPolicy = (typeof TOPICS_POLICIES)[number];

/** Zulip's legacy stream_post_policy, derived from can_send_message_group for old clients. */
export const POST_POLICY = { everyone: 1, admins: 2, fullMembers: 3, moderators: 4 } as const;

/** Checks and cleans a channel name (Zulip's check_stream_name); returns the trimmed name. */
export function checkChannelName(name: string, maxLength: number): string {
  const n = name.trim();
  if (!n) throw channelNameCantBeEmpty();
  if ([...n].length > maxLength) throw channelNameTooLongLimit(maxLength);
  const bad = unprintableAt(n);
  if (bad) throw invalidCharacterChannelNamePosition(bad);
  return n;
}

/** Channel descriptions are one line: Zulip replaces newlines with spaces. */
export const cleanDescription = (d: string) => d.replace(/\r?\n/g, " ");

// Colors handed to new subscriptions, in order, skipping those the user already uses (Zulip's palette).
export const CHANNEL_COLORS = [
  "#76ce90",
  "#fae589",
  "#a6c7e5",
  "#e79ab5",
  "#bfd56f",
  "#f4ae55",
  "#b0a5fd",
  "#addfe5",
  "#f5ce6e",
  "#c2726a",
  "#94c849",
  "#bd86e5",
  "#ee7e4a",
  "#a6dcbf",
  "#95a5fd",
  "#53a063",
  "#9987e1",
  "#e4523d",
  "#c2c2c2",
  "#4f8de4",
  "#c6a8ad",
  "#e7cc4d",
  "#c8bebf",
  "#a47462",
];

export function pickColor(used: ReadonlySet<string>, seed: number): string {
  return CHANNEL_COLORS.find((c) => !used.has(c)) ?? CHANNEL_COLORS[seed % CHANNEL_COLORS.length]!;
}

/** What a channel object shows beyond its row: counts and permission values, computed by the store. */
export interface ChannelStats {
  subscriberCount: number;
  firstMessageId: number | null;
  /** Messages in the last 7 days (null: the channel is younger than a week). */
  weeklyTraffic: number | null;
  isRecentlyActive: boolean;
  isDefault?: boolean;
  settings: Record<ChannelPermission, GroupSettingValue>;
  inactiveUsers: ReadonlySet<number>;
  /** The legacy post policy, from can_send_message_group. */
  postPolicy: number;
}

/** The stream object (GET /streams, register `streams`, stream/create events). */
export function toApiStream(c: ChannelRow, s: ChannelStats, o: { includeDefault?: boolean } = {}) {
  const out: Record<string, unknown> = {
    stream_id: c.id,
    name: c.name,
    is_archived: c.isArchived,
    description: c.description,
    date_created: c.dateCreated,
    creator_id: c.creatorId,
    invite_only: c.inviteOnly,
    rendered_description: c.renderedDescription,
    is_web_public: c.isWebPublic,
    stream_post_policy: s.postPolicy,
    message_retention_days: c.messageRetentionDays,
    history_public_to_subscribers: c.historyPublicToSubscribers,
    topics_policy: c.topicsPolicy,
    first_message_id: s.firstMessageId,
    folder_id: c.folderId,
    is_recently_active: s.isRecentlyActive,
    is_announcement_only: s.postPolicy === POST_POLICY.admins,
    subscriber_count: s.subscriberCount,
    stream_weekly_traffic: s.weeklyTraffic,
  };
  for (const name of SHOWN_PERMISSIONS) out[name] = presentGroupSetting(s.settings[name], s.inactiveUsers);
  if (o.includeDefault) out.is_default = s.isDefault ?? false;
  return out;
}

/** The subscription object: the stream object plus the user's own properties (null: inherit). */
export function toApiSubscription(c: ChannelRow, sub: SubscriptionRow, s: ChannelStats, members?: { subscribers?: number[]; partial_subscribers?: number[] }) {
  const { is_default, ...stream } = toApiStream(c, s);
  return {
    ...stream,
    ...members,
    color: sub.color,
    pin_to_top: sub.pinToTop,
    is_muted: sub.isMuted,
    in_home_view: !sub.isMuted,
    desktop_notifications: sub.desktopNotifications,
    email_notifications: sub.emailNotifications,
    push_notifications: sub.pushNotifications,
    audible_notifications: sub.audibleNotifications,
    wildcard_mentions_notify: sub.wildcardMentionsNotify,
  };
}

/** Subscription properties POST /users/me/subscriptions/properties may change, and their value shapes. */
export const SUBSCRIPTION_PROPERTIES = {
  color: "color",
  pin_to_top: "bool",
  is_muted: "bool",
  in_home_view: "bool", // deprecated inverse of is_muted
  desktop_notifications: "nullableBool",
  email_notifications: "nullableBool",
  push_notifications: "nullableBool",
  audible_notifications: "nullableBool",
  wildcard_mentions_notify: "nullableBool",
} as const;
export type SubscriptionProperty = keyof typeof SUBSCRIPTION_PROPERTIES;

/** Per-channel notification settings and the personal setting a null one inherits. */
export const INHERITED_NOTIFICATION_SETTINGS = {
  desktop_notifications: "enable_stream_desktop_notifications",
  email_notifications: "enable_stream_email_notifications",
  push_notifications: "enable_stream_push_notifications",
  audible_notifications: "enable_stream_audible_notifications",
  wildcard_mentions_notify: "wildcard_mentions_notify",
} as const;

/** The values a null channel notification setting stands for, for one user (from their settings). */
export const notificationDefaults = (userSettingOf: (name: string) => unknown): Record<string, boolean> =>
  Object.fromEntries(Object.entries(INHERITED_NOTIFICATION_SETTINGS).map(([p, s]) => [p, userSettingOf(s) === true]));

/** A subscription as a client without notification_settings_null sees it: nulls replaced by what they inherit. */
export function resolveNotificationSettings<T extends Record<string, unknown>>(sub: T, defaults: Record<string, boolean>): T {
  const out: Record<string, unknown> = { ...sub };
  for (const p of Object.keys(INHERITED_NOTIFICATION_SETTINGS)) if (out[p] === null) out[p] = defaults[p];
  return out as T;
}
