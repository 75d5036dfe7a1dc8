// Lazy delivery of channel messages to their subscribers' user_messages rows.
//
// A send writes the message and only the rows that carry something (the sender's read flag, mentions,
// alert words, wildcards); a plain subscriber's row would say only "received, unread", which the
// subscription already implies. Each active subscription remembers the last message of its channel that
// has rows (`delivered_through`); the rest are written, in one statement per user, the next time that
// user's rows are read or changed, and before anything changes who received them (unsubscribing,
// deactivation, moving messages between channels). This is Zulip's own catch-up for idle users
// ("soft deactivation") applied to everyone: a send costs the same for 5 or 500 subscribers.
//
// Invariant: for an active subscription of an active user, every message of the channel with an id at
// most `delivered_through` that the user received has its row. Message ids never repeat (AUTOINCREMENT),
// so "newer than delivered_through" is exactly the messages sent since.
import type { Db } from "../db/client";
import { engineOf } from "../db/engine";
import { joinBounded } from "../db/dialect";
import { idsAggregate, idsTable, idsValue } from "../db/in-ids";
import { raw } from "../db/raw";

/**
 * The newest message id the reader can see every message up to: on SQLite the newest ever assigned
 * (deleted ones included; the one connection sees the open batch's messages too). On PostgreSQL a
 * reader outside the writer sees only committed messages while the sequence already counts the open
 * batch's, so a catch-up read there would move `delivered_through` past messages it could not see:
 * the newest message it sees is the bound instead. Every smaller id is committed too, since one node's
 * writer assigns ids in order and commits its batches in order (several nodes take the realm's lock
 * for this, docs/scaling.md section 4). A deleted newest message only leaves the bound lower.
 */
export const lastMessageId = async (db: Db): Promise<number> =>
  (await raw(db).get<{ id: number }>(
    engineOf(db) === "postgres"
      ? "SELECT COALESCE(MAX(id), 0) AS id FROM messages"
      : "SELECT COALESCE((SELECT seq FROM sqlite_sequence WHERE name = 'messages'), 0) AS id",
  ))!.id;

/**
 * What a subscription still lacks: the ids (as `idsValue` gives them) of its channel's messages after `through`,
 * the `delivered_through` read, up to `upTo`, which `delivered_through` becomes once they are written.
 */
export interface PendingRows {
  userId: number;
  channelId: number;
  recipientId: number;
  through: number;
  upTo: number;
  ids: string;
  count: number;
}

/**
 * The pending rows of the active subscriptions picked by `where`: one user's, or every subscriber's of
 * some channels (or some users' in them). A read, so callers run it before their transaction, outside
 * the writer; nothing pending is an empty list, and then no transaction is needed.
 */
export async function readPendingRows(db: Db, where: { userId: number } | { channelIds: number[]; userIds?: number[] }): Promise<PendingRows[]> {
  const [cond, params]: [string, string[] | [number]] =
    "userId" in where
      ? ["s.user_id = ?2", [where.userId]]
      : where.userIds
        ? [
            `s.channel_id IN (SELECT value FROM ${idsTable(db, "?2")}) AND s.user_id IN (SELECT value FROM ${idsTable(db, "?3")})`,
            [idsValue(db, where.channelIds), idsValue(db, where.userIds)],
          ]
        : [`s.channel_id IN (SELECT value FROM ${idsTable(db, "?2")})`, [idsValue(db, where.channelIds)]];
  return await raw(db).all<PendingRows>(
    `SELECT s.user_id AS "userId", s.channel_id AS "channelId", MIN(c.recipient_id) AS "recipientId", s.delivered_through AS through,
         ?1 AS "upTo", ${idsAggregate(db, "m.id")} AS ids, COUNT(*) AS count
       FROM subscriptions s JOIN users u ON u.id = s.user_id AND u.is_active = true
         JOIN channels c ON c.id = s.channel_id
         ${joinBounded(db, "messages", "m", "m.recipient_id = c.recipient_id AND m.id > s.delivered_through AND m.id <= ?1")}
       WHERE s.active = true AND s.delivered_through < ?1 AND ${cond} GROUP BY s.user_id, s.channel_id`,
    await lastMessageId(db),
    ...params,
  );
}

/**
 * Writes rows read by `readPendingRows` or `readBacklog` (inside a transaction), for each subscription
 * only if its `delivered_through` is still the value read. Whatever changes who received a channel's
 * messages (unsubscribing, deactivation, resubscribing, another catch-up) moves that value first, so a
 * guard that holds means the read is still that subscription's backlog. A message deleted or moved
 * away since the read gets no row; one moved in has its rows already (moves write them). Returns
 * whether every guard held: where one failed, nothing was written for that subscription.
 */
export async function writePendingRead(db: Db, pending: PendingRows[]): Promise<boolean> {
  const s = raw(db);
  let held = true;
  for (const p of pending) {
    const { changes } = await s.run(
      "UPDATE subscriptions SET delivered_through = ?1 WHERE user_id = ?2 AND channel_id = ?3 AND active = true AND delivered_through = ?4",
      p.upTo,
      p.userId,
      p.channelId,
      p.through,
    );
    if (!changes) {
      held = false;
      continue;
    }
    // `id IN (list)`, not a join with json_each: joined, SQLite walked every message of the channel and
    // scanned the list for each (a fetch after a few thousand sends took seconds).
    await s.run(
      `INSERT INTO user_messages (user_id, message_id, flags)
       SELECT ?1, m.id, 0 FROM messages m WHERE m.id IN (SELECT value FROM ${idsTable(db, "?2")}) AND m.recipient_id = ?3
       ON CONFLICT DO NOTHING`,
      p.userId,
      p.ids,
      p.recipientId,
    );
  }
  return held;
}

/**
 * Reads and writes the pending rows picked by `where` inside the transaction (no guard can fail there):
 * before anything changes who received them, and where a write after an outside read found things changed.
 */
export async function writePendingRows(db: Db, where: Parameters<typeof readPendingRows>[1]) {
  await writePendingRead(db, await readPendingRows(db, where));
}

/** A user back from deactivation receives only messages sent from now on. */
export const startDeliveries = async (db: Db, userId: number) =>
  await raw(db).run("UPDATE subscriptions SET delivered_through = ?1 WHERE user_id = ?2 AND active = true", await lastMessageId(db), userId);

/** The channels holding these messages (a direct message has every row from the start). */
const channelsOfMessages = async (db: Db, ids: number[]): Promise<number[]> =>
  (
    await raw(db).all<{ id: number }>(
      `SELECT DISTINCT c.id FROM messages m JOIN channels c ON c.recipient_id = m.recipient_id WHERE m.id IN (SELECT value FROM ${idsTable(db, "?")})`,
      idsValue(db, ids),
    )
  ).map((c) => c.id);

/**
 * Writes the pending rows of every subscriber of the channels holding these messages, inside the
 * transaction that then asks who has them. Actions read and write those rows just before, outside the
 * writer (`catchUpChannels` in actions/catch-up.ts), so this normally finds nothing left.
 */
export const deliverForMessages = async (db: Db, ids: number[]) => await writePendingRows(db, { channelIds: await channelsOfMessages(db, ids) });

/**
 * Up to `limit` pending rows of the subscriptions furthest behind (at least `lag` messages), oldest
 * first, for `writePendingRead`. Housekeeping writes them so that a user back after a long absence
 * finds little left to write on their first read.
 */
export async function readBacklog(db: Db, lag: number, limit: number): Promise<PendingRows[]> {
  const s = raw(db);
  const behind = await s.all<{ userId: number; channelId: number; recipientId: number; through: number }>(
    `SELECT s.user_id AS "userId", s.channel_id AS "channelId", c.recipient_id AS "recipientId", s.delivered_through AS through
       FROM subscriptions s JOIN users u ON u.id = s.user_id AND u.is_active = true JOIN channels c ON c.id = s.channel_id
       WHERE s.active = true
         AND (SELECT COUNT(*) FROM (SELECT 1 FROM messages m WHERE m.recipient_id = c.recipient_id AND m.id > s.delivered_through LIMIT ?1) AS recent) >= ?1
       ORDER BY s.delivered_through`,
    lag,
  );
  const out: PendingRows[] = [];
  let left = limit;
  for (const b of behind) {
    if (left <= 0) break;
    const ids = (
      await s.all<{ id: number }>("SELECT id FROM messages WHERE recipient_id = ? AND id > ? ORDER BY id LIMIT ?", b.recipientId, b.through, left)
    ).map((r) => r.id);
    if (!ids.length) continue;
    out.push({ ...b, upTo: ids.at(-1)!, ids: idsValue(db, ids), count: ids.length });
    left -= ids.length;
  }
  return out;
}
