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
import { sqliteOf, type Db } from "../db/client";

/** The newest message id ever assigned (deleted ones included). */
export const lastMessageId = (db: Db): number =>
  sqliteOf(db).query<{ id: number }, []>("SELECT COALESCE((SELECT seq FROM sqlite_sequence WHERE name = 'messages'), 0) AS id").get()!.id;

/** Whether the user has channel messages without rows yet (a read; cheap: one probe per subscription). */
export const hasPending = (db: Db, userId: number): boolean =>
  !!sqliteOf(db)
    .query(
      `SELECT 1 FROM subscriptions s JOIN channels c ON c.id = s.channel_id
       WHERE s.user_id = ? AND s.active = 1
         AND EXISTS (SELECT 1 FROM messages m WHERE m.recipient_id = c.recipient_id AND m.id > s.delivered_through) LIMIT 1`,
    )
    .get(userId);

/**
 * Writes the pending rows of the active subscriptions picked by `where` (inside a transaction): one
 * user's (before reading or changing their rows), a channel's (before changing who received its
 * messages), or some users' in one channel (before they unsubscribe).
 */
export function writePendingRows(db: Db, where: { userId: number } | { channelId: number; userIds?: number[] }) {
  const s = sqliteOf(db);
  const last = lastMessageId(db);
  const [cond, params]: [string, (number | string)[]] =
    "userId" in where
      ? ["s.user_id = ?2", [where.userId]]
      : where.userIds
        ? ["s.channel_id = ?2 AND s.user_id IN (SELECT value FROM json_each(?3))", [where.channelId, JSON.stringify(where.userIds)]]
        : ["s.channel_id = ?2", [where.channelId]];
  s.query(
    `INSERT OR IGNORE INTO user_messages (user_id, message_id, flags)
     SELECT s.user_id, m.id, 0 FROM subscriptions s JOIN users u ON u.id = s.user_id AND u.is_active = 1
       JOIN channels c ON c.id = s.channel_id
       JOIN messages m ON m.recipient_id = c.recipient_id AND m.id > s.delivered_through AND m.id <= ?1
     WHERE s.active = 1 AND ${cond} ORDER BY s.user_id, m.id`,
  ).run(last, ...params);
  s.query(`UPDATE subscriptions AS s SET delivered_through = ?1 WHERE s.active = 1 AND s.delivered_through < ?1 AND ${cond}`).run(last, ...params);
}

/** A user back from deactivation receives only messages sent from now on. */
export const startDeliveries = (db: Db, userId: number) =>
  sqliteOf(db).query("UPDATE subscriptions SET delivered_through = ?1 WHERE user_id = ?2 AND active = 1").run(lastMessageId(db), userId);

/** Writes the pending rows of every subscriber of the channels holding these messages (before asking who has them). */
export function deliverForMessages(db: Db, ids: number[]) {
  const channels = sqliteOf(db)
    .query<{ id: number }, [string]>(
      "SELECT DISTINCT c.id FROM messages m JOIN channels c ON c.recipient_id = m.recipient_id WHERE m.id IN (SELECT value FROM json_each(?))",
    )
    .all(JSON.stringify(ids));
  for (const c of channels) writePendingRows(db, { channelId: c.id });
}

/**
 * Up to `limit` pending rows of the subscriptions furthest behind (at least `lag` messages), oldest
 * first; returns how many messages were delivered. Housekeeping calls it so that a user back after a
 * long absence finds little left to write on their first read.
 */
export function deliverBacklog(db: Db, lag: number, limit: number): number {
  const s = sqliteOf(db);
  const behind = s
    .query<{ userId: number; channelId: number; recipientId: number; through: number }, [number]>(
      `SELECT s.user_id AS userId, s.channel_id AS channelId, c.recipient_id AS recipientId, s.delivered_through AS through
       FROM subscriptions s JOIN users u ON u.id = s.user_id AND u.is_active = 1 JOIN channels c ON c.id = s.channel_id
       WHERE s.active = 1
         AND (SELECT COUNT(*) FROM (SELECT 1 FROM messages m WHERE m.recipient_id = c.recipient_id AND m.id > s.delivered_through LIMIT ?1)) >= ?1
       ORDER BY s.delivered_through`,
    )
    .all(lag);
  let done = 0;
  for (const b of behind) {
    if (done >= limit) break;
    const ids = s
      .query<{ id: number }, [number, number, number]>("SELECT id FROM messages WHERE recipient_id = ? AND id > ? ORDER BY id LIMIT ?")
      .all(b.recipientId, b.through, limit - done)
      .map((r) => r.id);
    if (!ids.length) continue;
    s.query("INSERT OR IGNORE INTO user_messages (user_id, message_id, flags) SELECT ?, value, 0 FROM json_each(?)").run(b.userId, JSON.stringify(ids));
    s.query("UPDATE subscriptions SET delivered_through = ? WHERE user_id = ? AND channel_id = ?").run(ids.at(-1)!, b.userId, b.channelId);
    done += ids.length;
  }
  return done;
}
