import { and, asc, eq, lte } from "drizzle-orm";
import type { Db } from "../db/client";
import { scheduledMessages, type ScheduledMessageRow } from "../db/schema";

export type ScheduledKind = ScheduledMessageRow["kind"];
export type NewScheduledMessage = Omit<ScheduledMessageRow, "id" | "delivered" | "deliveredMessageId" | "failed" | "failureMessage">;

export const insertScheduledMessage = async (db: Db, r: NewScheduledMessage): Promise<ScheduledMessageRow> =>
  db.insert(scheduledMessages).values(r).returning().get();

/** A user's undelivered scheduled messages (or reminders), soonest first. */
export const listUndelivered = async (db: Db, senderId: number, kind: ScheduledKind): Promise<ScheduledMessageRow[]> =>
  db
    .select()
    .from(scheduledMessages)
    .where(and(eq(scheduledMessages.senderId, senderId), eq(scheduledMessages.kind, kind), eq(scheduledMessages.delivered, false)))
    .orderBy(asc(scheduledMessages.scheduledAt), asc(scheduledMessages.id))
    .all();

export const findScheduledMessage = async (db: Db, senderId: number, kind: ScheduledKind, id: number): Promise<ScheduledMessageRow | undefined> =>
  db
    .select()
    .from(scheduledMessages)
    .where(and(eq(scheduledMessages.id, id), eq(scheduledMessages.senderId, senderId), eq(scheduledMessages.kind, kind)))
    .get();

export const updateScheduledMessage = async (db: Db, id: number, patch: Partial<ScheduledMessageRow>): Promise<ScheduledMessageRow> =>
  db.update(scheduledMessages).set(patch).where(eq(scheduledMessages.id, id)).returning().get()!;

export const deleteScheduledMessage = async (db: Db, id: number) => db.delete(scheduledMessages).where(eq(scheduledMessages.id, id)).run();

/** The next message due at `now` that was neither sent nor failed. */
export const nextDue = async (db: Db, now: number): Promise<ScheduledMessageRow | undefined> =>
  db
    .select()
    .from(scheduledMessages)
    .where(and(eq(scheduledMessages.delivered, false), eq(scheduledMessages.failed, false), lte(scheduledMessages.scheduledAt, now)))
    .orderBy(asc(scheduledMessages.scheduledAt), asc(scheduledMessages.id))
    .get();
