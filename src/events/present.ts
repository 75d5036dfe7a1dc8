// Per-client shapes, applied when a queue is read: the shared event object stays as the action emitted
// it, and each queue sees it shaped by its own options (apply_markdown, client_gravatar, capabilities).
import type { MessagePayload } from "./message-cache";
import type { QueueOptions, ServerEvent } from "./types";
import { resolveNotificationSettings } from "../domain/channels";
import { EMPTY_TOPIC_DISPLAY_NAME } from "../domain/messages";

/** The payloads of the message events being shaped (read beforehand: shaping does not await). */
export type Messages = { get(id: number): MessagePayload | null | undefined };

type Presenter = (event: ServerEvent, q: QueueOptions, messages: Messages, flags?: readonly string[]) => ServerEvent | ServerEvent[];

/**
 * Message events are emitted once for every recipient as
 *   { type: "message", message: <message object with HTML content>, raw_content, flags_by_user: {uid: flags},
 *     default_flags (every other recipient's), avatar_gravatar }
 * and queues keep them as { type, message_id } plus their user's flags (the message in the shared cache).
 * Each queue gets Zulip's shape: its user's `flags`, and raw Markdown when apply_markdown is off.
 * A message deleted before the client fetched it is skipped (its delete_message event follows).
 */
const message: Presenter = (ev, q, messages, flags = []) => {
  const { message_id, local_echo, ...rest } = ev as any;
  const payload = messages.get(message_id) ?? null;
  if (!payload) return [];
  const { raw_content, avatar_gravatar, message: m } = payload as any;
  const content = q.applyMarkdown ? m.content : (raw_content ?? m.content);
  const shown = { ...m, content, content_type: q.applyMarkdown ? "text/html" : "text/x-markdown" };
  // client_gravatar clients compute gravatar URLs themselves; avatar_gravatar says the avatar is one.
  if (q.clientGravatar && avatar_gravatar) shown.avatar_url = null;
  if (m.type === "stream") shown.subject = shownTopic(m.subject, q);
  // Local echo: the queue that sent the message learns which of its local messages this is.
  if (local_echo && local_echo.queue_id === q.queueId) return { ...rest, message: shown, flags, local_message_id: local_echo.local_id };
  return { ...rest, message: shown, flags };
};

/** The empty topic as a client sees it: as is with empty_topic_name, else realm_empty_topic_display_name. */
const shownTopic = (topic: string, q: QueueOptions) => (topic === "" && !q.capabilities.empty_topic_name ? EMPTY_TOPIC_DISPLAY_NAME : topic);

/** update_message is emitted once with flags_by_user: each client gets its user's flags, and topics as it shows them. */
const updateMessage: Presenter = (ev, q) => {
  const { flags_by_user, ...rest } = ev as any;
  const out: Record<string, unknown> = { ...rest, flags: (q.userId !== null && flags_by_user?.[q.userId]) || [] };
  if (typeof out.subject === "string") out.subject = shownTopic(out.subject, q);
  if (typeof out.orig_subject === "string") out.orig_subject = shownTopic(out.orig_subject, q);
  return out as ServerEvent;
};

/**
 * Archiving a channel is one `stream` `update` (is_archived true); clients without archived_channels
 * get Zulip's older `delete` event instead.
 */
const stream: Presenter = (ev, q) => {
  if (ev.op !== "update" || ev.property !== "is_archived" || ev.value !== true || q.capabilities.archived_channels) return ev;
  return { type: "stream", op: "delete", streams: [{ stream_id: ev.stream_id }], stream_ids: [ev.stream_id] };
};

/** Without bulk_message_deletion a client gets one event per deleted message. */
const deleteMessage: Presenter = (ev, q) => {
  if (typeof ev.topic === "string" && ev.topic === "") ev = { ...ev, topic: shownTopic(ev.topic, q) };
  if (q.capabilities.bulk_message_deletion || !Array.isArray(ev.message_ids)) return ev;
  const { message_ids, ...rest } = ev as any;
  return (message_ids as number[]).map((message_id) => ({ ...rest, message_id }));
};

/** Presence events carry both formats; simplified_presence_events clients get only the modern one. */
const presence: Presenter = (ev, q) => {
  const { presences, user_id, email, server_timestamp, presence: legacy, ...rest } = ev as any;
  return q.capabilities.simplified_presence_events ? { ...rest, presences } : { ...rest, user_id, email, server_timestamp, presence: legacy };
};

/** Channel typing notifications reach only clients that declared stream_typing_notifications. */
const typing: Presenter = (ev, q) => {
  if (ev.message_type !== "stream") return ev;
  if (!q.capabilities.stream_typing_notifications) return [];
  return ev.topic === "" ? { ...ev, topic: shownTopic("", q) } : ev;
};

/** Clients without linkifier_url_template cannot use URL-template linkifiers: they get no such events. */
const realmLinkifiers: Presenter = (ev, q) => (q.capabilities.linkifier_url_template ? ev : []);

/**
 * Group deactivation is an `update` with data.deactivated. Clients without include_deactivated_groups
 * never see deactivated groups: for them it is a `remove`, and a reactivation an `add` of the group
 * (the action attaches the group object to reactivation events for this, and only this, purpose).
 */
const userGroup: Presenter = (ev, q) => {
  if (ev.op !== "update") return ev;
  const { group, ...rest } = ev as { group?: unknown; data: Record<string, unknown> } & ServerEvent;
  const deactivated = rest.data.deactivated;
  if (q.capabilities.include_deactivated_groups || deactivated === undefined) return rest;
  return deactivated ? { type: "user_group", op: "remove", group_id: rest.group_id } : { type: "user_group", op: "add", group };
};

/**
 * Subscription events carry `inherit` (what the user's null notification settings stand for): clients
 * with notification_settings_null get the nulls, others the inherited values.
 */
const subscription: Presenter = (ev, q) => {
  if (!("inherit" in ev)) return ev;
  const { inherit, ...rest } = ev as ServerEvent & { inherit: Record<string, boolean> };
  if (q.capabilities.notification_settings_null) return rest;
  if (rest.op === "add")
    return { ...rest, subscriptions: (rest.subscriptions as Record<string, unknown>[]).map((s) => resolveNotificationSettings(s, inherit)) };
  if (rest.op === "update" && rest.value === null && (rest.property as string) in inherit) return { ...rest, value: inherit[rest.property as string] };
  return rest;
};

/** A stand-in `realm_user` add (for a guest who may not see the new user) is dropped for user_list_incomplete clients. */
const realmUser: Presenter = (ev, q) => {
  if (!ev.stand_in) return ev;
  const { stand_in, ...rest } = ev;
  return q.capabilities.user_list_incomplete ? [] : rest;
};

/**
 * Custom emoji changes: the one change for individual_emoji_changes clients, else the whole set (`update`).
 * A deactivation goes to those clients twice: as the contract's `edit` and as Zulip's `update_one`
 * ({emoji_id, data: {deactivated}}), which Zulip's own clients (zulip-flutter) parse; each kind of
 * client ignores the op it does not know.
 */
const realmEmoji: Presenter = (ev, q) => {
  const { change, ...update } = ev as ServerEvent & { change?: { op: string; emoji: { id: string; deactivated: boolean } } };
  if (!change) return ev;
  if (!q.capabilities.individual_emoji_changes) return update;
  const one = { type: "realm_emoji", op: change.op, emoji: change.emoji };
  if (change.op !== "edit") return one;
  return [one, { type: "realm_emoji", op: "update_one", emoji_id: change.emoji.id, data: { deactivated: change.emoji.deactivated } }];
};

export const PRESENTERS: Record<string, Presenter> = {
  realm_emoji: realmEmoji,
  realm_user: realmUser,
  subscription,
  user_group: userGroup,
  realm_linkifiers: realmLinkifiers,
  message,
  update_message: updateMessage,
  stream,
  delete_message: deleteMessage,
  presence,
  typing,
};

/** The events a queue's client receives for one stored event (usually one, sometimes several). */
export function present(event: ServerEvent, q: QueueOptions, messages: Messages, flags?: readonly string[]): ServerEvent[] {
  const p = PRESENTERS[event.type];
  const out = p ? p(event, q, messages, flags) : event;
  return Array.isArray(out) ? out : [out];
}
