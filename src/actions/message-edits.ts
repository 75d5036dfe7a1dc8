// Editing, moving and deleting messages: PATCH /messages/{id} (content, topic, channel, propagate_mode,
// notifications), GET /messages/{id}/history, DELETE /messages/{id}, POST /streams/{id}/delete_topic.
import type { App } from "../context";
import type { ChannelRow, MessageRow, RealmRow, UserRow } from "../db/schema";
import type { Tx } from "../db/tx";
import {
  cannotDeleteMessage,
  cannotEditMessage,
  cannotMoveMessage,
  channelEditTimeLimitPassed,
  contentChanged,
  contentWhileMoving,
  deleteTimeLimitPassed,
  dmMove,
  dmTopic,
  editHistoryDisabled,
  editingDisabled,
  editTimeLimitPassed,
  insufficientPermission,
  moveTimeLimitExceeded,
  nothingToChange,
  topicEditTimeLimitPassed,
} from "../domain/errors";
import { htmlDiff } from "../domain/html-diff";
import { FLAG, flagList } from "../domain/message-flags";
import { normalizeContent, normalizeTopic, parseEditHistory, RESOLVED_TOPIC_PREFIX, topicForClient, type EditHistoryEntry } from "../domain/messages";
import { realmSetting } from "../domain/realm-settings";
import { isGuest, isModerator } from "../domain/roles";
import { toUsers } from "../events/types";
import { textForSearch, topicLinks } from "../render";
import { channelSlug, encodeHashComponent } from "../render/urls";
import * as flagStore from "../store/message-flags";
import * as store from "../store/messages";
import { hasRealmPermission } from "../store/permissions";
import { subscriberIds } from "../store/subscriptions";
import { moveUserTopics } from "../store/topics";
import { findUserById } from "../store/users";
import { moveTopicWorkspaceTx } from "./workspaces";
import { moveLiveRuns } from "../store/agent-runs";
import { detachMessagesTx, relinkAttachmentsTx } from "./attachments";
import { catchUp, catchUpChannels } from "./catch-up";
import { accessMessage, canReadChannelHistory } from "./message-fetch";
import { checkCanPost, checkTopicAllowed, sendNotificationTx } from "./messages";
import { realmLinkifiers, renderFor } from "./render";
import { p, t, type Args } from "../domain/params";
import { accessChannelById, canAdministerChannel, hasChannelPermission } from "../access/channels";
import { filterInOrder } from "../lib/in-order";

/** Zulip lets an edit that started just inside the limit through. */
const EDIT_GRACE_SECONDS = 10;

export const editParams = {
  topic: p.str().optional().alias("subject"),
  propagate_mode: p.enum(["change_one", "change_later", "change_all"] as const).optional("change_one" as const),
  send_notification_to_old_thread: p.bool().optional(false),
  send_notification_to_new_thread: p.bool().optional(true),
  content: p.str().optional(),
  prev_content_sha256: p.str().optional(),
  stream_id: p.int().optional(),
};

export type EditArgs = Args<typeof editParams>;

const sha256 = (s: string) => new Bun.CryptoHasher("sha256").update(s).digest("hex");
const limit = (
  realm: RealmRow,
  name:
    | "message_content_edit_limit_seconds"
    | "move_messages_within_stream_limit_seconds"
    | "move_messages_between_streams_limit_seconds"
    | "message_content_delete_limit_seconds",
) => realmSetting(realm, name) as number | null;

const stripResolved = (t: string) => (t.startsWith(RESOLVED_TOPIC_PREFIX) ? t.slice(RESOLVED_TOPIC_PREFIX.length) : t);
/** A rename that only adds or removes the resolved prefix (resolving or unresolving the topic). */
const isResolveToggle = (from: string, to: string) =>
  from !== to && stripResolved(from) === stripResolved(to) && (from.startsWith(RESOLVED_TOPIC_PREFIX) || to.startsWith(RESOLVED_TOPIC_PREFIX));

/** Messages of the topic that a move with this propagate_mode takes along (those the editor may read). */
async function messagesToMove(app: App, user: UserRow, m: MessageRow, channel: ChannelRow, mode: EditArgs["propagate_mode"]): Promise<number[]> {
  if (mode === "change_one") return [m.id];
  const history = channel.historyPublicToSubscribers && (await canReadChannelHistory(app, user, channel));
  const from = mode === "change_later" ? m.id : 0;
  if (!history) await catchUp(app, user);
  return await store.listTopicMessageIds(app.db, m.recipientId, m.topic, { fromId: from, receivedBy: history ? null : user.id });
}

/** Non-moderators may move only messages sent within the realm's limit (Zulip's partial-move error). */
async function checkMoveLimit(app: App, user: UserRow, ids: number[], seconds: number | null, tooOld: () => Error) {
  if (seconds === null || isModerator(user.role)) return;
  const cutoff = app.now() - seconds - EDIT_GRACE_SECONDS;
  const dates = await store.listMessageDates(app.db, ids);
  const allowed = dates.filter((r) => r.d >= cutoff);
  if (allowed.length === dates.length) return;
  if (dates.length === 1 || !allowed.length) throw tooOld();
  throw moveTimeLimitExceeded(allowed[0]!.id, dates.length, allowed.length);
}

/** PATCH /messages/{message_id}. */
export async function editMessage(app: App, realm: RealmRow, user: UserRow, id: number, a: EditArgs) {
  if (a.topic === undefined && a.content === undefined && a.stream_id === undefined) throw nothingToChange();
  const { message: m, channel } = await accessMessage(app, realm, user, id);
  if (a.content !== undefined && a.stream_id !== undefined && a.stream_id !== channel?.id) throw contentWhileMoving();
  const now = app.now();
  const limits = app.config.limits;

  // Content: only its sender, while the realm allows editing and within its time limit.
  let content: { text: string; rendered: Awaited<ReturnType<typeof renderFor>> } | null = null;
  if (a.content !== undefined) {
    if (!realmSetting(realm, "allow_message_editing")) throw editingDisabled();
    if (m.senderId !== user.id) throw cannotEditMessage();
    const l = limit(realm, "message_content_edit_limit_seconds");
    if (l !== null && now - m.dateSent > l + EDIT_GRACE_SECONDS) throw editTimeLimitPassed();
    if (a.prev_content_sha256 !== undefined && a.prev_content_sha256 !== sha256(m.content)) throw contentChanged();
    // Zulip keeps a message emptied by an edit as "(deleted)".
    const text = a.content.trim() ? normalizeContent(a.content, limits.maxMessageLength) : "(deleted)";
    if (text !== m.content) content = { text, rendered: await renderFor(app, realm, user, text) };
  }

  // Topic and channel moves.
  if (!channel && a.topic !== undefined && a.topic !== "") throw dmTopic();
  if (!channel && a.stream_id !== undefined) throw dmMove();
  const newTopic = channel && a.topic !== undefined ? normalizeTopic(a.topic, limits.maxTopicLength) : undefined;
  const target =
    channel && a.stream_id !== undefined && a.stream_id !== channel.id
      ? (await accessChannelById(app, user, a.stream_id, { content: true })).channel
      : undefined;
  const topicChanged = newTopic !== undefined && newTopic !== m.topic;
  const moving = !!channel && (topicChanged || !!target);
  let moved: number[] = [];
  if (moving) {
    const dest = target ?? channel!;
    const destTopic = newTopic ?? m.topic;
    if (target) {
      const allowed =
        (await hasRealmPermission(app.db, realm, user, "can_move_messages_between_channels_group")) ||
        (await hasChannelPermission(app, user, channel!, "can_move_messages_out_of_channel_group")) ||
        (await canAdministerChannel(app, user, channel!));
      if (!allowed) throw cannotMoveMessage();
      await checkCanPost(app, user, target);
    }
    if (topicChanged) {
      const resolving = isResolveToggle(m.topic, newTopic!);
      const allowed = resolving
        ? (await hasRealmPermission(app.db, realm, user, "can_resolve_topics_group")) ||
          (await hasChannelPermission(app, user, channel!, "can_resolve_topics_group"))
        : m.topic === "" ||
          (await hasRealmPermission(app.db, realm, user, "can_move_messages_between_topics_group")) ||
          (await hasChannelPermission(app, user, channel!, "can_move_messages_within_channel_group")) ||
          (await canAdministerChannel(app, user, channel!));
      if (!allowed) throw cannotEditMessage();
    }
    checkTopicAllowed(realm, dest, destTopic);
    moved = await messagesToMove(app, user, m, channel!, a.propagate_mode);
    if (target) await checkMoveLimit(app, user, moved, limit(realm, "move_messages_between_streams_limit_seconds"), channelEditTimeLimitPassed);
    else if (!isResolveToggle(m.topic, newTopic!))
      await checkMoveLimit(app, user, moved, limit(realm, "move_messages_within_stream_limit_seconds"), topicEditTimeLimitPassed);
  }
  if (!content && !moving) return { detached_uploads: [] };

  // Who holds the messages (the events' audience, on both sides of a move), read outside the writer.
  if (channel) await catchUpChannels(app, target ? [channel.id, target.id] : [channel.id]);
  const detached = await app.tx(async (tx) => {
    const before = await flagStore.messageRecipients(tx.db, m.id);
    if (content)
      await applyContentEdit(app, tx, user, m, content.text, content.rendered, now, moving ? { channel: channel!, target, topic: newTopic } : null, !!channel);
    if (moving) await applyMove(app, tx, realm, user, m, channel!, target ?? null, newTopic ?? m.topic, moved, now, a, !!content);
    await emitUpdate(
      app,
      tx,
      realm,
      user,
      m,
      channel,
      { content, moved, target: target ?? null, topic: newTopic ?? m.topic, mode: a.propagate_mode, now },
      before,
    );
    return content ? await relinkAttachmentsTx(app, tx, realm, user, m.id, content.rendered.attachmentPathIds) : [];
  });
  return { detached_uploads: detached };
}

/** Prepends an edit-history entry (Zulip keeps them most recent first). */
function withHistory(row: MessageRow, entry: EditHistoryEntry): string {
  return JSON.stringify([entry, ...parseEditHistory(row.editHistory)]);
}

async function applyContentEdit(
  app: App,
  tx: Tx,
  user: UserRow,
  m: MessageRow,
  text: string,
  rendered: Awaited<ReturnType<typeof renderFor>>,
  now: number,
  move: { channel: ChannelRow; target?: ChannelRow; topic?: string } | null,
  inChannel: boolean,
) {
  const entry: EditHistoryEntry = { user_id: user.id, timestamp: now, prev_content: m.content, prev_rendered_content: m.renderedContent };
  if (move?.topic !== undefined && move.topic !== m.topic) Object.assign(entry, { prev_topic: m.topic, topic: move.topic });
  if (move?.target) Object.assign(entry, { prev_stream: move.channel.id, stream: move.target.id });
  await store.updateMessage(tx.db, m.id, {
    content: text,
    renderedContent: rendered.html,
    hasLink: rendered.links.length > 0,
    hasImage: rendered.hasImage,
    hasAttachment: rendered.hasAttachment,
    isMeMessage: rendered.isMeMessage,
    editHistory: withHistory(m, entry),
    lastEditTime: now,
  });
  await store.reindexMessage(tx.db, m.id, move?.topic ?? m.topic, textForSearch(rendered.html));
  // Mentions follow the new content: newly mentioned users get the flag, users no longer mentioned lose it.
  const mentioned = new Set(rendered.mentionedUserIds);
  for (const r of await flagStore.messageRecipients(tx.db, m.id)) {
    let f = r.flags & ~(FLAG.mentioned | FLAG.stream_wildcard_mentioned);
    if (mentioned.has(r.userId)) f |= FLAG.mentioned;
    if (rendered.channelWildcard) f |= inChannel ? FLAG.stream_wildcard_mentioned : FLAG.mentioned;
    if (f !== r.flags) await flagStore.setFlags(tx.db, r.userId, m.id, f);
  }
}

/** Moves messages to a topic and/or channel, with recipients, history entries, search index and notifications. */
async function applyMove(
  app: App,
  tx: Tx,
  realm: RealmRow,
  user: UserRow,
  m: MessageRow,
  channel: ChannelRow,
  target: ChannelRow | null,
  topic: string,
  ids: number[],
  now: number,
  a: EditArgs,
  contentEdited: boolean,
) {
  const dest = target ?? channel;
  const rows = await store.listMessagesByIds(tx.db, ids);
  const allInTopic = ids.length === (await store.countTopicMessages(tx.db, m.recipientId, m.topic));
  for (const row of rows) {
    // The edited message already has its entry from the content edit.
    const history =
      row.id === m.id && contentEdited
        ? (await store.findMessage(tx.db, row.id))!.editHistory
        : withHistory(row, moveEntry(user, now, channel, target, row.topic, topic));
    await store.updateMessage(tx.db, row.id, { recipientId: dest.recipientId, topic, editHistory: history, lastMovedTime: now });
    await store.reindexMessage(tx.db, row.id, topic, textForSearch((await store.findMessage(tx.db, row.id))!.renderedContent));
  }
  if (target) await moveRecipients(app, tx, { channel, topic: m.topic }, target, ids);
  if (allInTopic) {
    await moveUserTopics(tx.db, { channelId: channel.id, topic: m.topic }, { channelId: dest.id, topic });
    await moveTopicWorkspaceTx(app, tx, { channel, topic: m.topic }, { channel: dest, topic });
    await moveLiveRuns(tx.db, { recipientId: channel.recipientId, topic: m.topic }, { channelId: dest.id, recipientId: dest.recipientId, topic });
  }
  await notifyMove(app, tx, realm, user, { channel, topic: m.topic }, { channel: dest, topic }, ids, allInTopic, a);
}

function moveEntry(user: UserRow, now: number, channel: ChannelRow, target: ChannelRow | null, fromTopic: string, toTopic: string): EditHistoryEntry {
  const e: EditHistoryEntry = { user_id: user.id, timestamp: now };
  if (target) Object.assign(e, { prev_stream: channel.id, stream: target.id });
  if (fromTopic !== toTopic) Object.assign(e, { prev_topic: fromTopic, topic: toTopic });
  return e;
}

/**
 * Moving to another channel: its subscribers who lacked the messages get them (as read, so a move
 * notifies nobody), and holders who may not read the new channel lose them (with delete events).
 */
async function moveRecipients(app: App, tx: Tx, from: { channel: ChannelRow; topic: string }, target: ChannelRow, ids: number[]) {
  const subs = await subscriberIds(tx.db, target.id);
  await flagStore.addReceived(tx.db, subs, ids, FLAG.read);
  const subSet = new Set(subs);
  const holders = await flagStore.messageHolders(tx.db, ids);
  const lost = await filterInOrder(holders, async (uid) => {
    if (subSet.has(uid)) return false;
    if (target.inviteOnly) return true;
    const u = await findUserById(tx.db, uid);
    return !u || (isGuest(u.role) && !target.isWebPublic);
  });
  if (!lost.length) return;
  await flagStore.removeReceived(tx.db, lost, ids);
  tx.emit({ type: "delete_message", message_ids: ids, message_type: "stream", stream_id: from.channel.id, topic: from.topic }, toUsers(lost));
}

const location = (c: ChannelRow, topic: string) => `#**${c.name}>${topic}**`;
const messageLink = (c: ChannelRow, topic: string, id: number) => `#narrow/channel/${channelSlug(c.id, c.name)}/topic/${encodeHashComponent(topic)}/near/${id}`;

/** The notification bot's notes in the old and new threads (or, for resolving, in the topic itself). */
async function notifyMove(
  app: App,
  tx: Tx,
  realm: RealmRow,
  user: UserRow,
  from: { channel: ChannelRow; topic: string },
  to: { channel: ChannelRow; topic: string },
  ids: number[],
  all: boolean,
  a: EditArgs,
) {
  const who = `@_**${user.fullName}|${user.id}**`;
  if (from.channel.id === to.channel.id && isResolveToggle(from.topic, to.topic)) {
    if (!a.send_notification_to_new_thread) return;
    const verb = to.topic.startsWith(RESOLVED_TOPIC_PREFIX) ? "resolved" : "unresolved";
    await sendNotificationTx(app, tx, realm, to, `${who} has marked this topic as ${verb}.`);
    return;
  }
  const [oldNote, newNote] = all
    ? [
        `This topic was moved to ${location(to.channel, to.topic)} by ${who}.`,
        `This topic was moved here from ${location(from.channel, from.topic)} by ${who}.`,
      ]
    : ids.length === 1
      ? [
          `[A message](${messageLink(to.channel, to.topic, ids[0]!)}) was moved from this topic to ${location(to.channel, to.topic)} by ${who}.`,
          `[A message](${messageLink(to.channel, to.topic, ids[0]!)}) was moved here from ${location(from.channel, from.topic)} by ${who}.`,
        ]
      : [
          `${ids.length} messages were moved from this topic to ${location(to.channel, to.topic)} by ${who}.`,
          `${ids.length} messages were moved here from ${location(from.channel, from.topic)} by ${who}.`,
        ];
  if (a.send_notification_to_old_thread) await sendNotificationTx(app, tx, realm, from, oldNote);
  if (a.send_notification_to_new_thread) await sendNotificationTx(app, tx, realm, to, newNote);
}

/** One update_message event for everyone who has (or had) the messages, with each user's flags. */
async function emitUpdate(
  app: App,
  tx: Tx,
  realm: RealmRow,
  user: UserRow,
  m: MessageRow,
  channel: ChannelRow | null,
  e: {
    content: { text: string; rendered: Awaited<ReturnType<typeof renderFor>> } | null;
    moved: number[];
    target: ChannelRow | null;
    topic: string;
    mode: EditArgs["propagate_mode"];
    now: number;
  },
  before: { userId: number; flags: number }[],
) {
  const after = await flagStore.messageRecipients(tx.db, m.id);
  const flags: Record<number, string[]> = {};
  for (const r of after) flags[r.userId] = flagList(r.flags);
  // After a channel move, only those who still have the message hear where it went.
  const audience = new Set([...(e.target ? [] : before.map((r) => r.userId)), ...after.map((r) => r.userId)]);
  const ev: Record<string, unknown> = {
    type: "update_message",
    user_id: user.id,
    edit_timestamp: e.now,
    message_id: m.id,
    message_ids: e.moved.length ? e.moved : [m.id],
    rendering_only: false,
    flags_by_user: flags,
  };
  if (e.content)
    Object.assign(ev, {
      orig_content: m.content,
      orig_rendered_content: m.renderedContent,
      content: e.content.text,
      rendered_content: e.content.rendered.html,
      is_me_message: e.content.rendered.isMeMessage,
    });
  if (channel) {
    Object.assign(ev, { stream_name: channel.name, stream_id: channel.id });
    if (e.moved.length) {
      ev.propagate_mode = e.mode;
      if (e.topic !== m.topic)
        Object.assign(ev, { orig_subject: m.topic, subject: e.topic, topic_links: topicLinks(e.topic, await realmLinkifiers(app, realm)) });
      if (e.target) ev.new_stream_id = e.target.id;
    }
  }
  tx.emit(ev as never, toUsers([...audience], channel && !channel.inviteOnly ? { publicStreamOf: realm.id } : {}));
}

// ---- History ----

/** GET /messages/{message_id}/history: snapshots, oldest first, as the realm's policy allows. */
export async function messageHistory(app: App, realm: RealmRow, user: UserRow, id: number, allowEmptyTopicName: boolean) {
  const policy = String(realmSetting(realm, "message_edit_history_visibility_policy"));
  if (policy === "none") throw editHistoryDisabled();
  const { message: m, channel } = await accessMessage(app, realm, user, id);
  const topic = (t: string) => (channel ? topicForClient(t, allowEmptyTopicName) : t);
  let cur = { topic: m.topic, content: m.content, rendered: m.renderedContent, stream: channel?.id };
  const snapshots: Record<string, unknown>[] = [];
  for (const e of parseEditHistory(m.editHistory)) {
    const contentEdit = e.prev_content !== undefined;
    if (policy === "moves" && !contentEdit && e.prev_topic === undefined && e.prev_stream === undefined) continue;
    const snap: Record<string, unknown> = {
      topic: topic(cur.topic),
      content: cur.content,
      rendered_content: cur.rendered,
      timestamp: e.timestamp,
      user_id: e.user_id,
    };
    if (e.prev_topic !== undefined) snap.prev_topic = topic(e.prev_topic);
    if (e.prev_stream !== undefined) Object.assign(snap, { stream: e.stream ?? cur.stream, prev_stream: e.prev_stream });
    if (contentEdit && policy === "all")
      Object.assign(snap, {
        prev_content: e.prev_content,
        prev_rendered_content: e.prev_rendered_content,
        content_html_diff: htmlDiff(e.prev_rendered_content ?? "", cur.rendered),
      });
    if (policy === "all" || !contentEdit || e.prev_topic !== undefined || e.prev_stream !== undefined) snapshots.push(snap);
    cur = {
      topic: e.prev_topic ?? cur.topic,
      content: policy === "all" ? (e.prev_content ?? cur.content) : cur.content,
      rendered: policy === "all" ? (e.prev_rendered_content ?? cur.rendered) : cur.rendered,
      stream: e.prev_stream ?? cur.stream,
    };
  }
  snapshots.push({ topic: topic(cur.topic), content: cur.content, rendered_content: cur.rendered, timestamp: m.dateSent, user_id: m.senderId });
  return { message_history: snapshots.reverse() };
}

// ---- Deleting ----

/** Zulip's delete rules: "delete any" holders (realm or channel), else the sender within the time limit. */
async function checkCanDelete(app: App, realm: RealmRow, user: UserRow, m: MessageRow, channel: ChannelRow | null) {
  const any =
    (await hasRealmPermission(app.db, realm, user, "can_delete_any_message_group")) ||
    (channel && (await hasChannelPermission(app, user, channel, "can_delete_any_message_group")));
  if (any) return;
  const own =
    m.senderId === user.id &&
    ((await hasRealmPermission(app.db, realm, user, "can_delete_own_message_group")) ||
      (channel && (await hasChannelPermission(app, user, channel, "can_delete_own_message_group"))));
  if (!own) throw cannotDeleteMessage();
  const l = limit(realm, "message_content_delete_limit_seconds");
  if (l !== null && app.now() - m.dateSent > l + EDIT_GRACE_SECONDS) throw deleteTimeLimitPassed();
}

/** Deletes messages of one conversation inside the caller's transaction; one event to everyone who had them. */
export async function deleteMessagesTx(app: App, tx: Tx, realm: RealmRow, channel: ChannelRow | null, rows: MessageRow[]) {
  if (!rows.length) return;
  const ids = rows.map((r) => r.id);
  const holders = await flagStore.messageHolders(tx.db, ids);
  await detachMessagesTx(app, tx, ids);
  await store.deleteMessages(tx.db, ids);
  const ev: Record<string, unknown> = { type: "delete_message", message_ids: ids, message_type: channel ? "stream" : "private" };
  if (channel) Object.assign(ev, { stream_id: channel.id, topic: rows[0]!.topic });
  tx.emit(ev as never, toUsers(holders, channel && !channel.inviteOnly ? { publicStreamOf: realm.id } : {}));
}

/** DELETE /messages/{message_id}. */
export async function deleteMessage(app: App, realm: RealmRow, user: UserRow, id: number) {
  const { message: m, channel } = await accessMessage(app, realm, user, id);
  await checkCanDelete(app, realm, user, m, channel);
  if (channel) await catchUpChannels(app, [channel.id]);
  await app.tx(async (tx) => await deleteMessagesTx(app, tx, realm, channel, [m]));
  return {};
}

/** Topics are deleted in batches so one request never holds the writer for long; `complete` says whether more remain. */
const DELETE_TOPIC_BATCH = 1000;

/** POST /streams/{stream_id}/delete_topic: holders of "delete any" delete the topic's messages they can read. */
export async function deleteTopic(app: App, realm: RealmRow, user: UserRow, channelId: number, topicName: string) {
  const { channel } = await accessChannelById(app, user, channelId, { content: true, archived: true });
  const allowed =
    (await hasRealmPermission(app.db, realm, user, "can_delete_any_message_group")) ||
    (await hasChannelPermission(app, user, channel, "can_delete_any_message_group"));
  if (!allowed) throw insufficientPermission();
  const history = channel.historyPublicToSubscribers && (await canReadChannelHistory(app, user, channel));
  if (!history) await catchUp(app, user);
  const ids = await store.listTopicMessageIds(app.db, channel.recipientId, topicName, { receivedBy: history ? null : user.id, limit: DELETE_TOPIC_BATCH + 1 });
  const batch = ids.slice(0, DELETE_TOPIC_BATCH);
  await catchUpChannels(app, [channel.id]);
  await app.tx(async (tx) => await deleteMessagesTx(app, tx, realm, channel, await store.listMessagesByIds(tx.db, batch)));
  return { complete: ids.length <= DELETE_TOPIC_BATCH };
}
