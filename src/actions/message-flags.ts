// Per-user message flags: POST /messages/flags (and /narrow), the mark-as-read shortcuts, and the
// unread counts register reports.
import type { App } from "../context";
import type { RealmRow, UserRow } from "../db/schema";
import type { Tx } from "../db/tx";
import { flagNotEditable, invalidFlag } from "../domain/errors";
import { EDITABLE_FLAGS, FLAG, MENTION_MASK, NON_EDITABLE_FLAGS } from "../domain/message-flags";
import { dmKeyMembers } from "../domain/messages";
import { toUsers } from "../events/types";
import * as store from "../store/message-flags";
import { channelsOfMessages } from "../store/messages";
import { isSubscribed, mutedChannelIds } from "../store/subscriptions";
import { catchUp } from "./catch-up";
import { accessMessage, MAX_MESSAGES_PER_FETCH, narrowParam, narrowRange } from "./message-fetch";
import { accessChannelById } from "../access/channels";
import { p, t, type Args } from "../domain/params";

/** Zulip caps the unread messages register reports; beyond it old_unreads_missing is set. */
export const MAX_UNREAD_MESSAGES = 50000;

function flagBit(flag: string): number {
  if ((EDITABLE_FLAGS as readonly string[]).includes(flag)) return FLAG[flag as keyof typeof FLAG];
  if (NON_EDITABLE_FLAGS.includes(flag)) throw flagNotEditable(flag);
  throw invalidFlag(flag);
}

/** Details clients need to count a message as unread again (Zulip's message_details). */
async function messageDetails(app: App, userId: number, ids: number[]) {
  const out: Record<string, Record<string, unknown>> = {};
  const rows = await store.flagDetails(app.db, userId, ids);
  const muted = new Set(await mutedChannelIds(app.db, userId, { activeOnly: false }));
  for (const r of rows) {
    const d: Record<string, unknown> =
      r.channel_id !== null
        ? { type: "stream", stream_id: r.channel_id, topic: r.topic, unmuted_stream_msg: !muted.has(r.channel_id) }
        : { type: "private", user_ids: dmKeyMembers(r.dm_key!).filter((u) => u !== userId) };
    if (r.flags & MENTION_MASK) d.mentioned = true;
    out[String(r.id)] = d;
  }
  return out;
}

/** Sets or clears one flag on messages, inside the caller's transaction, and tells the user's clients. */
export async function changeFlagsTx(app: App, tx: Tx, user: UserRow, ids: number[], flag: string, add: boolean): Promise<number[]> {
  const bit = flagBit(flag);
  const changed = await store.changeFlag(tx.db, user.id, ids, bit, add);
  if (!changed.length) return changed;
  const event: Record<string, unknown> = {
    type: "update_message_flags",
    op: add ? "add" : "remove",
    operation: add ? "add" : "remove",
    flag,
    messages: changed,
    all: false,
  };
  if (!add && flag === "read") event.message_details = await messageDetails(app, user.id, changed);
  tx.emit(event as never, toUsers([user.id]));
  return changed;
}

/** Marking unread in channels the user left is ignored (Zulip, level 355): those messages and channels. */
async function notSubscribed(app: App, user: UserRow, ids: number[]): Promise<{ keep: number[]; channels: number[] }> {
  const rows = await channelsOfMessages(app.db, ids);
  const channels = new Set<number>();
  const keep: number[] = [];
  for (const r of rows) {
    if (r.c !== null && !(await isSubscribed(app.db, user.id, r.c))) channels.add(r.c);
    else keep.push(r.id);
  }
  return { keep, channels: [...channels].sort((a, b) => a - b) };
}

const op = () => p.enum(["add", "remove"] as const);

export const flagsParams = { messages: p.intList({ max: MAX_MESSAGES_PER_FETCH }), op: op(), flag: p.str() };

/** POST /messages/flags. */
export async function updateMessageFlags(app: App, realm: RealmRow, user: UserRow, a: Args<typeof flagsParams>) {
  flagBit(a.flag);
  await catchUp(app, user);
  const received = await store.receivedIds(app.db, user.id, a.messages);
  // Messages read from a channel's history get a row of their own (marked historical) when flagged.
  const historical = a.messages.filter((id) => !received.has(id));
  for (const id of historical) await accessMessage(app, realm, user, id);
  let ids = a.messages;
  let ignored: number[] = [];
  if (a.flag === "read" && a.op === "remove") ({ keep: ids, channels: ignored } = await notSubscribed(app, user, ids));
  return await app.tx(async (tx) => {
    // Historical rows start read (the client already shows such messages as read).
    if (a.op === "add" && historical.length) await store.insertHistorical(tx.db, user.id, historical, FLAG.read);
    const changed = await changeFlagsTx(app, tx, user, ids, a.flag, a.op === "add");
    return { messages: changed, ignored_because_not_subscribed_channels: ignored };
  });
}

export const flagsForNarrowParams = {
  anchor: p.str(),
  include_anchor: p.bool().optional(true),
  num_before: p.int({ min: 0 }),
  num_after: p.int({ min: 0 }),
  narrow: narrowParam(),
  op: op(),
  flag: p.str(),
};

/** POST /messages/flags/narrow: the same change over a range of a narrow. */
export async function updateMessageFlagsForNarrow(app: App, realm: RealmRow, user: UserRow, a: Args<typeof flagsForNarrowParams>) {
  flagBit(a.flag);
  const r = await narrowRange(app, realm, user, a);
  let ids = r.rows.map((x) => x.id);
  let ignored: number[] = [];
  if (a.flag === "read" && a.op === "remove") ({ keep: ids, channels: ignored } = await notSubscribed(app, user, ids));
  const changed = await app.tx(async (tx) => await changeFlagsTx(app, tx, user, ids, a.flag, a.op === "add"));
  return {
    processed_count: r.rows.length,
    updated_count: changed.length,
    first_processed_id: r.rows[0]?.id ?? null,
    last_processed_id: r.rows.at(-1)?.id ?? null,
    found_oldest: r.foundOldest,
    found_newest: r.foundNewest,
    ignored_because_not_subscribed_channels: ignored,
  };
}

/** POST /mark_all_as_read. */
export async function markAllAsRead(app: App, user: UserRow) {
  await catchUp(app, user);
  const ids = await store.unreadIn(app.db, user.id, null);
  await app.tx(async (tx) => await changeFlagsTx(app, tx, user, ids, "read", true));
  return { complete: true };
}

/** POST /mark_stream_as_read and /mark_topic_as_read. */
export async function markChannelAsRead(app: App, user: UserRow, channelId: number, topic?: string) {
  const { channel } = await accessChannelById(app, user, channelId, { archived: true });
  await catchUp(app, user);
  const ids = await store.unreadIn(app.db, user.id, channel.recipientId, topic);
  await app.tx(async (tx) => await changeFlagsTx(app, tx, user, ids, "read", true));
  return {};
}

// ---- Register state ----
