// Sending messages (by users and by the realm's own bots) and building message objects.
import type { App, SentMessage } from "../context";
import { widgetOf } from "../domain/submessages";
import { insertSubmessage } from "../store/submessages";
import type { ChannelRow, MessageRow, RealmRow, UserRow } from "../db/schema";
import type { Tx } from "../db/tx";
import {
  cannotSendToMultipleChannels,
  channelIdNotFound,
  channelNotFound,
  channelWildcardNotAllowed,
  dmInitiationNotAllowed,
  dmNotAuthorized,
  emptyTopicNotAllowed,
  groupMentionNotAllowed,
  invalidRecipientEmail,
  invalidRecipientId,
  messageNeedsRecipients,
  missingTopic,
  noPostPermission,
  noTopicCreatePermission,
  notAuthorizedToSend,
  onlyEmptyTopicAllowed,
  recipientDeactivated,
  topicWildcardNotAllowed,
} from "../domain/errors";
import { SYSTEM_BOTS } from "../domain/bots";
import { FLAG, flagNames } from "../domain/message-flags";
import { hasAlertWord, normalizeContent, normalizeTopic, toApiMessage, type MessageParts } from "../domain/messages";
import { realmSetting } from "../domain/realm-settings";
import { ROLE } from "../domain/roles";
import { toUsers } from "../events/types";
import { emitUserAdded } from "./user-added";
import { textForSearch, topicLinks, type Rendered } from "../render";
import * as channelStore from "../store/channels";
import * as store from "../store/messages";
import { hasGroupPermission, hasRealmPermission, inGroupSetting } from "../store/permissions";
import { realmGroupSetting } from "../store/realm-settings";
import { subscriberIds } from "../store/subscriptions";
import { findUserGroup, listRecursiveMemberIds } from "../store/user-groups";
import { findUserByEmail, findUserById, insertUser } from "../store/users";
import { claimAttachmentsTx } from "./attachments";
import { EMBEDDED_BOT, EVENT_VIEW, senderOf } from "./message-objects";
import { randomToken } from "../lib/random";
import { realmLinkifiers, renderFor } from "./render";
import { channelEmailRecipients, scheduleMissedMessagesTx } from "./missed-messages";
import { queueOutgoingWebhooksTx } from "./outgoing-webhooks";
import { findTopicWorkspace } from "../store/workspaces";
import { p, type Args } from "../domain/params";
import { channelAccess, hasChannelPermission } from "../access/channels";
import { someInOrder } from "../lib/in-order";

/** Wildcard mentions reaching more users than this need can_mention_many_users_group (Zulip's limit). */
const WILDCARD_MENTION_THRESHOLD = 15;

// ---- Addressing ----

export const sendParams = {
  type: p.enum(["stream", "channel", "private", "direct"] as const),
  to: p.jsonOrText(),
  content: p.str(),
  topic: p.str().optional().alias("subject"),
  queue_id: p.str().optional(),
  local_id: p.str().optional(),
  read_by_sender: p.bool().optional(),
};

export type SendArgs = Args<typeof sendParams>;

async function channelTarget(app: App, realm: RealmRow, raw: unknown): Promise<ChannelRow> {
  let to = raw;
  if (Array.isArray(to)) {
    if (to.length !== 1) throw to.length ? cannotSendToMultipleChannels() : messageNeedsRecipients();
    to = to[0];
  }
  if (typeof to === "number" && Number.isInteger(to)) {
    // Every send names its channel: read through the request lookups (sends keep them, db/read-cache.ts).
    const c = await app.reads.get(`channel:${to}`, async () => await channelStore.findChannel(app.db, to as number));
    if (!c || c.realmId !== realm.id) throw channelIdNotFound(to);
    return c;
  }
  const name = String(to).trim();
  const c = await channelStore.findChannelByName(app.db, realm.id, name);
  if (!c) throw channelNotFound(name);
  return c;
}

async function dmTargets(app: App, realm: RealmRow, to: unknown): Promise<UserRow[]> {
  const list: unknown[] = Array.isArray(to)
    ? to
    : typeof to === "number"
      ? [to]
      : String(to)
          .split(",")
          .map((s) => s.trim())
          .filter(Boolean);
  if (!list.length) throw messageNeedsRecipients();
  const users = new Map<number, UserRow>();
  for (const item of list) {
    let u: UserRow | undefined;
    if (typeof item === "number") {
      u = await findUserById(app.db, item);
      if (!u || u.realmId !== realm.id) throw invalidRecipientId(item);
    } else {
      u = await findUserByEmail(app.db, realm.id, String(item));
      if (!u) throw invalidRecipientEmail(String(item));
    }
    if (!u.isActive) throw recipientDeactivated(u.email);
    users.set(u.id, u);
  }
  return [...users.values()];
}

// ---- Checks ----

/** Zulip's rules for posting to a channel: access, the channel's sending group, archived channels. */
export async function checkCanPost(app: App, sender: UserRow, c: ChannelRow) {
  if (c.isArchived) throw notAuthorizedToSend(c.name);
  // A subscriber may post (the memoized recipients say so without a query); others by the access rules,
  // and a bot where its owner is subscribed.
  const recipients = await channelRecipients(app, c.id);
  const content = recipients.includes(sender.id) || (await channelAccess(app, sender, c)).content;
  const ownerSubscribed = sender.isBot && sender.botOwnerId !== null && recipients.includes(sender.botOwnerId);
  if (!content && !ownerSubscribed) throw notAuthorizedToSend(c.name);
  if (!(await hasChannelPermission(app, sender, c, "can_send_message_group"))) throw noPostPermission();
}

/** The channel's effective policy for the empty ("general chat") topic. */
export function topicsPolicyOf(realm: RealmRow, c: ChannelRow): string {
  return c.topicsPolicy === "inherit" ? String(realmSetting(realm, "topics_policy")) : c.topicsPolicy;
}

/**
 * A channel message sent with neither `topic` nor `subject`: where only the general chat is allowed it
 * goes there; elsewhere it is refused (with the policy's own error where topics are required), never
 * silently filed under the empty topic.
 */
function topicWhenMissing(realm: RealmRow, c: ChannelRow): string {
  const policy = topicsPolicyOf(realm, c);
  if (policy === "empty_topic_only") return "";
  throw policy === "disable_empty_topic" ? emptyTopicNotAllowed() : missingTopic();
}

export function checkTopicAllowed(realm: RealmRow, c: ChannelRow, topic: string) {
  const policy = topicsPolicyOf(realm, c);
  if (topic === "" && policy === "disable_empty_topic") throw emptyTopicNotAllowed();
  if (topic !== "" && policy === "empty_topic_only") throw onlyEmptyTopicAllowed();
}

async function checkMentions(app: App, realm: RealmRow, sender: UserRow, r: Rendered, recipients: number, topicParticipants: number) {
  const many = async () => await hasRealmPermission(app.db, realm, sender, "can_mention_many_users_group");
  if (r.channelWildcard && recipients > WILDCARD_MENTION_THRESHOLD && !(await many())) throw channelWildcardNotAllowed();
  if (r.topicWildcard && topicParticipants > WILDCARD_MENTION_THRESHOLD && !(await many())) throw topicWildcardNotAllowed();
  for (const gid of r.mentionedGroupIds) {
    const g = await findUserGroup(app.db, realm.id, gid);
    if (g && !(await hasGroupPermission(app.db, g, sender, "can_mention_group"))) throw groupMentionNotAllowed(g.name);
  }
}

// ---- Delivery ----

interface Outgoing {
  recipientId: number;
  channel: ChannelRow | null;
  dmUsers: UserRow[] | null;
  topic: string;
  content: string;
  rendered: Rendered;
  /** Users who receive the message (and its event); a channel's plain subscribers get their rows lazily. */
  recipients: readonly number[];
  /** The sender's queue_id and local_id: that queue's event carries local_message_id (local echo). */
  echo?: { queue_id: string; local_id: string };
}

/** A channel's recipients: its active subscribers who are active users, memoized (db/read-cache.ts) for
 * the send path; whatever changes them calls `forgetRecipients`. */
const channelRecipients = async (app: App, channelId: number): Promise<readonly number[]> =>
  await app.reads.memo(`recipients:${channelId}`, async () => await subscriberIds(app.db, channelId));
export const forgetRecipients = (app: App) => app.reads.forget("recipients:");

/** The memo (db/read-cache.ts) of everyone's alert words; actions/alert-words.ts forgets it on change. */
export const ALERT_WORDS = "alert-words";

/**
 * Each recipient's initial flags: `base` for everyone (direct message, channel wildcard), `own` for the
 * users with more (read for the sender, mentions, topic wildcard, alert words). Only those few are
 * visited: a plain subscriber costs nothing here.
 */
async function initialFlags(app: App, sender: UserRow, o: Outgoing, readBySender: boolean): Promise<{ base: number; own: Map<number, number> }> {
  let base = o.channel ? 0 : FLAG.is_private;
  if (o.rendered.channelWildcard) base |= o.channel ? FLAG.stream_wildcard_mentioned : FLAG.mentioned;
  const own = new Map<number, number>();
  let recipients: Set<number> | null = null;
  const add = (id: number, bit: number) => {
    if (id !== sender.id && !(recipients ??= new Set(o.recipients)).has(id)) return;
    own.set(id, (own.get(id) ?? base) | bit);
  };
  if (o.recipients.includes(sender.id)) add(sender.id, readBySender ? FLAG.read : 0);
  for (const id of o.rendered.mentionedUserIds) add(id, FLAG.mentioned);
  for (const gid of o.rendered.mentionedGroupIds) for (const id of await listRecursiveMemberIds(app.db, gid)) add(id, FLAG.mentioned);
  if (o.rendered.topicWildcard && o.channel)
    for (const id of await store.topicParticipants(app.db, o.recipientId, o.topic)) add(id, FLAG.topic_wildcard_mentioned);
  const alertWords = await app.reads.memo(ALERT_WORDS, async () => await store.allAlertWords(app.db));
  if (alertWords.size) {
    const text = textForSearch(o.rendered.html);
    for (const [id, words] of alertWords) if (id !== sender.id && hasAlertWord(text, words)) add(id, FLAG.has_alert_word);
  }
  return { base, own };
}

/** Writes one message and its per-user rows inside the caller's transaction, and emits its event. */
async function deliverTx(app: App, tx: Tx, realm: RealmRow, sender: UserRow, o: Outgoing, client: string, readBySender: boolean): Promise<number> {
  const now = app.now();
  const { base, own } = await initialFlags(app, sender, o, readBySender);
  // Who may be mailed about a channel message gets a row now, so reading it before the mail cancels it.
  const emailed = o.channel ? await channelEmailRecipients(app, tx, o.channel, o.topic) : null;
  if (emailed) for (const id of [...emailed.followers, ...emailed.subscribers]) if (!own.has(id) && o.recipients.includes(id)) own.set(id, base);
  const fields = {
    realmId: realm.id,
    senderId: sender.id,
    recipientId: o.recipientId,
    topic: o.topic,
    content: o.content,
    renderedContent: o.rendered.html,
    dateSent: now,
    client,
    hasLink: o.rendered.links.length > 0,
    hasImage: o.rendered.hasImage,
    hasAttachment: o.rendered.hasAttachment,
    isMeMessage: o.rendered.isMeMessage,
  };
  const id = await store.insertMessage(tx.db, fields);
  // A message starting with /poll or /todo carries its widget from the start, as Zulip's server attaches it.
  const widget = widgetOf(o.content);
  const submessages = widget ? [await insertSubmessage(tx.db, { messageId: id, senderId: sender.id, msgType: "widget", content: JSON.stringify(widget) })] : [];
  // A channel's plain subscribers (flags 0) get their rows when they next read (store/lazy-delivery.ts).
  if (o.channel && base === 0) await store.insertUserMessages(tx.db, id, own);
  else
    await store.insertUserMessages(
      tx.db,
      id,
      o.recipients.map((uid) => [uid, own.get(uid) ?? base] as const),
    );
  // After the rows: the access check may catch the sender's lazy rows up (store/lazy-delivery.ts).
  if (o.rendered.attachmentPathIds.length) await claimAttachmentsTx(app, tx, realm, sender, id, o.rendered.attachmentPathIds);
  await scheduleMissedMessagesTx(
    app,
    tx,
    {
      messageId: id,
      sender,
      channel: o.channel,
      topic: o.topic,
      recipients: o.recipients,
      base,
      own,
      mentionedUserIds: o.rendered.mentionedUserIds,
      mentionedGroupIds: o.rendered.mentionedGroupIds,
    },
    emailed,
  );
  // Indexed for search in the next batch (actions/search-index.ts).
  const row: MessageRow = { id, ...fields, editHistory: null, lastEditTime: null, lastMovedTime: null };
  const parts: MessageParts = {
    sender: senderOf(app, sender),
    recipient: o.channel
      ? { type: "stream", channelId: o.channel.id, name: o.channel.name }
      : { type: "private", users: o.dmUsers!.sort((a, b) => a.id - b.id).map((u) => ({ id: u.id, email: u.email, full_name: u.fullName })) },
    realmStr: realm.stringId,
    reactions: [],
    submessages: submessages.map(store.toApiSubmessage),
    topicLinks: o.channel ? topicLinks(o.topic, await realmLinkifiers(app, realm)) : [],
    isAgentMessage: sender.isBot && sender.botType === EMBEDDED_BOT,
    workspaceUuid: o.channel ? (await findTopicWorkspace(tx.db, o.channel.id, o.topic))?.uuid : undefined,
  };
  const message = toApiMessage(row, parts, EVENT_VIEW(realm));
  await queueOutgoingWebhooksTx(
    app,
    tx,
    sender,
    { channel: o.channel, dmUsers: o.dmUsers, recipients: o.recipients, mentionedUserIds: o.rendered.mentionedUserIds, content: o.content },
    message,
  );
  const flagsByUser: Record<number, readonly string[]> = {};
  for (const [uid, f] of own) flagsByUser[uid] = flagNames(f);
  tx.emit(
    {
      type: "message",
      message,
      raw_content: o.content,
      flags_by_user: flagsByUser,
      default_flags: flagNames(base),
      avatar_gravatar: sender.avatarSource === "G",
      ...(o.echo ? { local_echo: o.echo } : {}),
    },
    toUsers(o.recipients, o.channel && !o.channel.inviteOnly ? { publicStreamOf: realm.id } : {}),
  );
  return id;
}

const echoOf = (a: SendArgs) => (a.queue_id !== undefined && a.local_id !== undefined ? { queue_id: a.queue_id, local_id: a.local_id } : undefined);

/** A send changes no user, realm or key: the cached request lookups stay (db/read-cache.ts). */
const KEEPS_LOOKUPS = { keepsLookups: true };

/** A message checked and rendered, not yet written: what POST /messages sends and scheduled messages keep. */
export type CheckedSend =
  | { channel: ChannelRow; topic: string; content: string; rendered: Rendered; participants: null }
  | { channel: null; topic: ""; content: string; rendered: Rendered; participants: UserRow[] };

/** Every check a send makes (recipients, permissions, topic policy, mentions), and the rendering. */
export async function checkSend(app: App, realm: RealmRow, sender: UserRow, a: Pick<SendArgs, "type" | "to" | "content" | "topic">): Promise<CheckedSend> {
  const limits = app.config.limits;
  const content = normalizeContent(a.content, limits.maxMessageLength);
  if (a.type === "stream" || a.type === "channel") {
    const channel = await channelTarget(app, realm, a.to);
    await checkCanPost(app, sender, channel);
    const topic = a.topic === undefined ? topicWhenMissing(realm, channel) : normalizeTopic(a.topic, limits.maxTopicLength);
    checkTopicAllowed(realm, channel, topic);
    if (!(await hasChannelPermission(app, sender, channel, "can_create_topic_group")) && !(await store.topicExists(app.db, channel.recipientId, topic)))
      throw noTopicCreatePermission();
    const rendered = await renderFor(app, realm, sender, content);
    const subscribers = await channelRecipients(app, channel.id);
    await checkMentions(
      app,
      realm,
      sender,
      rendered,
      subscribers.length + (subscribers.includes(sender.id) ? 0 : 1),
      rendered.topicWildcard ? (await store.topicParticipants(app.db, channel.recipientId, topic)).length : 0,
    );
    return { channel, topic, content, rendered, participants: null };
  }
  // A topic sent with a direct message is ignored, as Zulip does (some clients always send one).
  const others = await dmTargets(app, realm, a.to);
  const participants = [sender, ...others.filter((u) => u.id !== sender.id)];
  await checkDirectMessage(app, realm, sender, participants);
  const rendered = await renderFor(app, realm, sender, content);
  await checkMentions(app, realm, sender, rendered, 0, 0);
  return { channel: null, topic: "", content, rendered, participants };
}

/** POST /messages: checks everything, renders outside the transaction, then writes and emits. */
export async function sendMessage(app: App, realm: RealmRow, sender: UserRow, a: SendArgs, client = "API"): Promise<{ id: number }> {
  const c = await checkSend(app, realm, sender, a);
  const readBySender = a.read_by_sender ?? true;
  const { content, rendered } = c;
  if (c.channel) {
    const { channel, topic } = c;
    const subscribers = await channelRecipients(app, channel.id);
    const recipients = subscribers.includes(sender.id) ? subscribers : [...subscribers, sender.id];
    const o: Outgoing = { recipientId: channel.recipientId, channel, dmUsers: null, topic, content, rendered, recipients, echo: echoOf(a) };
    const id = await app.tx(async (tx) => {
      const id = await deliverTx(app, tx, realm, sender, o, client, readBySender);
      const m: SentMessage = {
        realmId: realm.id,
        messageId: id,
        senderId: sender.id,
        recipientId: o.recipientId,
        channelId: channel.id,
        topic,
        participantIds: [],
        mentionedUserIds: rendered.mentionedUserIds,
      };
      tx.afterCommit(() => messageSent(app, m));
      return id;
    }, KEEPS_LOOKUPS);
    return { id };
  }
  const participants = c.participants;
  const ids = participants.map((u) => u.id);
  const sent = await app.tx(async (tx) => {
    const r = await store.dmRecipient(tx.db, realm.id, ids);
    const o: Outgoing = { recipientId: r.id, channel: null, dmUsers: participants, topic: "", content, rendered, recipients: ids, echo: echoOf(a) };
    const id = await deliverTx(app, tx, realm, sender, o, client, readBySender);
    const m: SentMessage = {
      realmId: realm.id,
      messageId: id,
      senderId: sender.id,
      recipientId: r.id,
      channelId: null,
      topic: "",
      participantIds: ids,
      mentionedUserIds: rendered.mentionedUserIds,
    };
    tx.afterCommit(() => messageSent(app, m));
    return { id };
  }, KEEPS_LOOKUPS);
  return { id: sent.id };
}

/** After a send's COMMIT: counted for GET /metrics, and told to the agent. */
function messageSent(app: App, m: SentMessage) {
  app.metrics.messagesSent++;
  app.listeners.messageSent?.(m);
}

/** The realm's direct-message permissions: some participant must hold direct_message_permission_group,
 * and starting a new conversation needs direct_message_initiator_group. Bots and notes to self are exempt. */
async function checkDirectMessage(app: App, realm: RealmRow, sender: UserRow, participants: UserRow[]) {
  if (participants.length === 1 || participants.some((u) => u.isBot)) return;
  const allowed = await realmGroupSetting(app.db, realm, "direct_message_permission_group");
  if (!(await someInOrder(participants, async (u) => await inGroupSetting(app.db, u, allowed)))) throw dmNotAuthorized();
  const existing = await store.findDmRecipient(
    app.db,
    participants.map((u) => u.id),
  );
  if (!existing && !(await hasRealmPermission(app.db, realm, sender, "direct_message_initiator_group"))) throw dmInitiationNotAllowed();
}

// ---- The realm's internal bots ----

/** One of the realm's own bots (created on first use), e.g. the notification bot or the welcome bot. */
export async function internalBotTx(app: App, tx: Tx, realm: RealmRow, bot: { email: string; fullName: string }): Promise<UserRow> {
  const found = await findUserByEmail(tx.db, realm.id, bot.email);
  if (found) return found;
  const row = await insertUser(tx.db, {
    realmId: realm.id,
    email: bot.email,
    fullName: bot.fullName,
    role: ROLE.member,
    isBot: true,
    botType: 1,
    apiKey: randomToken(32),
    dateJoined: app.now(),
  });
  // Clients that registered before it existed learn of it with its first message, not as "Unknown user".
  await emitUserAdded(app, tx, realm, row);
  return row;
}

/** The realm's notification bot: it announces channels, moves and subscriptions. */
export const notificationBotTx = async (app: App, tx: Tx, realm: RealmRow): Promise<UserRow> => await internalBotTx(app, tx, realm, SYSTEM_BOTS.notification);

/** Where one of the realm's own bots posts: a channel's topic, or a direct-message conversation. With
 * `recipients`, only those participants receive it (the notification bot keeps no copy of its notes). */
export type BotTarget = { channel: ChannelRow; topic: string } | { dmUsers: UserRow[]; recipients?: readonly number[] };

/**
 * The one path by which the server itself posts (a notification, a welcome, the agent's or an outgoing
 * webhook's answer): a message from one of the realm's own bots, inside the caller's transaction. The
 * server or the conversation asked for it, so no permission applies.
 */
export async function sendBotMessageTx(app: App, tx: Tx, realm: RealmRow, bot: UserRow, to: BotTarget, content: string, client: string): Promise<number> {
  const rendered = await renderFor(app, realm, bot, content);
  if ("channel" in to) {
    const recipients = await subscriberIds(tx.db, to.channel.id);
    const o: Outgoing = { recipientId: to.channel.recipientId, channel: to.channel, dmUsers: null, topic: to.topic, content, rendered, recipients };
    return await deliverTx(app, tx, realm, bot, o, client, true);
  }
  const ids = to.dmUsers.map((u) => u.id);
  const r = await store.dmRecipient(tx.db, realm.id, ids);
  const o: Outgoing = { recipientId: r.id, channel: null, dmUsers: to.dmUsers, topic: "", content, rendered, recipients: to.recipients ?? ids };
  return await deliverTx(app, tx, realm, bot, o, client, true);
}

/** A message from the notification bot to a channel's topic or to one user. */
export async function sendNotificationTx(
  app: App,
  tx: Tx,
  realm: RealmRow,
  to: { channel: ChannelRow; topic: string } | { to: UserRow },
  content: string,
): Promise<number> {
  const bot = await notificationBotTx(app, tx, realm);
  return await sendBotMessageTx(app, tx, realm, bot, "to" in to ? { dmUsers: [bot, to.to], recipients: [to.to.id] } : to, content, "Internal");
}
