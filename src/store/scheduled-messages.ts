import { and, asc, eq, lte } from "drizzle-orm";
import type { Db } from "../db/client";
import { type ScheduledMessageRow } from "../db/schema";
import { tables } from "../db/engine";
import { first, all, run } from "../db/query";

export type ScheduledKind = ScheduledMessageRow["kind"];
export type NewScheduledMessage = Omit<ScheduledMessageRow, "id" | "delivered" | "deliveredMessageId" | "failed" | "failureMessage">;

export const insertScheduledMessage = async (db: Db, r: NewScheduledMessage): Promise<ScheduledMessageRow> => {
  const { scheduledMessages } = tables(db);
  return first(db.insert(scheduledMessages).values(r).returning());
};

/** A user's undelivered scheduled messages (or reminders), soonest first. */
export const listUndelivered = async (db: Db, senderId: number, kind: ScheduledKind): Promise<ScheduledMessageRow[]> => {
  const { scheduledMessages } = tables(db);
  return all(
    db
      .select()
      .from(scheduledMessages)
      .where(and(eq(scheduledMessages.senderId, senderId), eq(scheduledMessages.kind, kind), eq(scheduledMessages.delivered, false)))
      .orderBy(asc(scheduledMessages.scheduledAt), asc(scheduledMessages.id)),
  );
};

export const findScheduledMessage = async (db: Db, senderId: number, kind: ScheduledKind, id: number): Promise<ScheduledMessageRow | undefined> => {
  const { scheduledMessages } = tables(db);
  return first(
    db
      .select()
      .from(scheduledMessages)
      .where(and(eq(scheduledMessages.id, id), eq(scheduledMessages.senderId, senderId), eq(scheduledMessages.kind, kind))),
  );
};

export const updateScheduledMessage = async (db: Db, id: number, patch: Partial<ScheduledMessageRow>): Promise<ScheduledMessageRow> => {
  const { scheduledMessages } = tables(db);
  return (await first(db.update(scheduledMessages).set(patch).where(eq(scheduledMessages.id, id)).returning()))!;
};

export const deleteScheduledMessage = async (db: Db, id: number) => {
  const { scheduledMessages } = tables(db);
  return run(db.delete(scheduledMessages).where(eq(scheduledMessages.id, id)));
};

/** The next message due at `now` that was neither sent nor failed. */
export const nextDue = async (db: Db, now: number): Promise<ScheduledMessageRow | undefined> => {
  const { scheduledMessages } = tables(db);
  return first(
    db
      .select()
      .from(scheduledMessages)
      .where(and(eq(scheduledMessages.delivered, false), eq(scheduledMessages.failed, false), lte(scheduledMessages.scheduledAt, now)))
      .orderBy(asc(scheduledMessages.scheduledAt), asc(scheduledMessages.id)),
  );
};
