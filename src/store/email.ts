// The email tables (db/schema/email.ts): the outbox, single-use link tokens and scheduled missed-message
// notifications, plus the few reads that decide who gets notified of a channel message.
import { and, asc, desc, eq, isNull, lte } from "drizzle-orm";
import type { Db } from "../db/client";
import {
  type emailOutbox,
  type emailTokens,
  type missedMessages,
  type EmailOutboxRow,
  type EmailTokenRow,
  type MessageRow,
  type MissedMessageRow,
} from "../db/schema";
import { tables } from "../db/engine";
import { first, all, run } from "../db/query";
import { raw } from "../db/raw";
import { jsonBoolean } from "../db/dialect";
import { idsTable, idsValue } from "../db/in-ids";

// ---- Outbox ----

export const insertOutbox = async (db: Db, m: typeof emailOutbox.$inferInsert): Promise<EmailOutboxRow> => {
  const { emailOutbox } = tables(db);
  return first(db.insert(emailOutbox).values(m).returning());
};

/** Pending mail whose next attempt is due, oldest first. */
export const dueOutbox = async (db: Db, now: number, limit: number): Promise<EmailOutboxRow[]> => {
  const { emailOutbox } = tables(db);
  return all(
    db
      .select()
      .from(emailOutbox)
      .where(and(eq(emailOutbox.status, "pending"), lte(emailOutbox.nextAttemptAt, now)))
      .orderBy(asc(emailOutbox.id))
      .limit(limit),
  );
};

export const updateOutbox = async (db: Db, id: number, patch: Partial<typeof emailOutbox.$inferInsert>) => {
  const { emailOutbox } = tables(db);
  return run(db.update(emailOutbox).set(patch).where(eq(emailOutbox.id, id)));
};

/** The outbox, newest first; `status` narrows it. */
export const listOutbox = async (db: Db, limit: number, status?: string): Promise<EmailOutboxRow[]> => {
  const { emailOutbox } = tables(db);
  return all(
    db
      .select()
      .from(emailOutbox)
      .where(status ? eq(emailOutbox.status, status) : undefined)
      .orderBy(desc(emailOutbox.id))
      .limit(limit),
  );
};

// ---- Single-use link tokens ----

export const insertEmailToken = async (db: Db, t: typeof emailTokens.$inferInsert): Promise<EmailTokenRow> => {
  const { emailTokens } = tables(db);
  return first(db.insert(emailTokens).values(t).returning());
};

export const findEmailToken = async (db: Db, tokenHash: string): Promise<EmailTokenRow | undefined> => {
  const { emailTokens } = tables(db);
  return first(db.select().from(emailTokens).where(eq(emailTokens.tokenHash, tokenHash)));
};

/** Uses up every open token of one kind of a user (the one just used, and any older ones). */
export const useEmailTokens = async (db: Db, userId: number, kind: string, now: number) => {
  const { emailTokens } = tables(db);
  return run(
    db
      .update(emailTokens)
      .set({ usedAt: now })
      .where(and(eq(emailTokens.userId, userId), eq(emailTokens.kind, kind), isNull(emailTokens.usedAt))),
  );
};

// ---- Missed-message notifications ----

export async function insertMissedMessages(db: Db, rows: (typeof missedMessages.$inferInsert)[]) {
  const { missedMessages } = tables(db);
  if (rows.length) await run(db.insert(missedMessages).values(rows));
}

/** Users with a notification whose batching period is over. */
export const dueMissedUserIds = async (db: Db, now: number, limit: number): Promise<number[]> => {
  const { missedMessages } = tables(db);
  return (await all(db.selectDistinct({ id: missedMessages.userId }).from(missedMessages).where(lte(missedMessages.scheduledAt, now)).limit(limit))).map(
    (r) => r.id,
  );
};

/** Takes (deletes and returns) all of a user's scheduled notifications: a batch goes out together. */
export const takeMissedMessages = async (db: Db, userId: number): Promise<MissedMessageRow[]> => {
  const { missedMessages } = tables(db);
  return all(db.delete(missedMessages).where(eq(missedMessages.userId, userId)).returning());
};

/** Of these messages, those the user received and has not read, sent after `since` (not at it), oldest first. */
export const unreadMessagesSince = async (db: Db, userId: number, ids: number[], since: number): Promise<MessageRow[]> =>
  ids.length
    ? (
        await raw(db).all<Record<string, unknown>>(
          `SELECT m.* FROM messages m JOIN user_messages um ON um.message_id = m.id AND um.user_id = ?1
           WHERE m.id IN (SELECT value FROM ${idsTable(db, "?2")}) AND (um.flags & 1) = 0 AND m.date_sent > ?3 ORDER BY m.id`,
          userId,
          idsValue(db, ids),
          since,
        )
      ).map(toMessageRow)
    : [];

const toMessageRow = (r: Record<string, unknown>): MessageRow => ({
  id: r.id as number,
  realmId: r.realm_id as number,
  senderId: r.sender_id as number,
  recipientId: r.recipient_id as number,
  topic: r.topic as string,
  content: r.content as string,
  renderedContent: r.rendered_content as string,
  dateSent: r.date_sent as number,
  client: r.client as string,
  editHistory: r.edit_history as string | null,
  lastEditTime: r.last_edit_time as number | null,
  lastMovedTime: r.last_moved_time as number | null,
  hasLink: !!r.has_link,
  hasImage: !!r.has_image,
  hasAttachment: !!r.has_attachment,
  isMeMessage: !!r.is_me_message,
});

/**
 * A channel's active subscribers who want email for its messages: the subscription's own
 * email_notifications, or, while that is null, the user's enable_stream_email_notifications.
 */
export const channelEmailSubscribers = async (db: Db, channelId: number): Promise<number[]> =>
  (
    await raw(db).all<{ id: number }>(
      `SELECT s.user_id AS id FROM subscriptions s JOIN users u ON u.id = s.user_id
       WHERE s.channel_id = ? AND s.active = true AND u.is_active = true AND u.is_bot = false
         AND coalesce(s.email_notifications, ${jsonBoolean(db, "u.settings", "enable_stream_email_notifications")}, false) = true`,
      channelId,
    )
  ).map((r) => r.id);

/** Users following a topic (visibility policy 3). */
export const topicFollowers = async (db: Db, channelId: number, topic: string): Promise<number[]> =>
  (
    await raw(db).all<{ id: number }>("SELECT user_id AS id FROM user_topics WHERE channel_id = ? AND topic = ? AND visibility_policy = 3", channelId, topic)
  ).map((r) => r.id);

/** Per-channel wildcard_mentions_notify overrides (null: follow the user's setting). */
export const wildcardOverrides = async (db: Db, channelId: number, userIds: number[]): Promise<Map<number, boolean>> =>
  new Map(
    (
      await raw(db).all<{ id: number; v: number }>(
        `SELECT user_id AS id, wildcard_mentions_notify AS v FROM subscriptions WHERE channel_id = ? AND wildcard_mentions_notify IS NOT NULL AND user_id IN (SELECT value FROM ${idsTable(db, "?")})`,
        channelId,
        idsValue(db, userIds),
      )
    ).map((r) => [r.id, !!r.v]),
  );
