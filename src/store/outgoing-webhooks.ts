import { asc, eq, lte, min } from "drizzle-orm";
import type { Db } from "../db/client";
import { outgoingWebhookCalls, type OutgoingWebhookCallRow } from "../db/schema";

export const insertOutgoingWebhookCall = async (db: Db, c: typeof outgoingWebhookCalls.$inferInsert) => db.insert(outgoingWebhookCalls).values(c).run();

/** Calls due by `nowMs`, oldest first. */
export const listDueOutgoingWebhookCalls = async (db: Db, nowMs: number, limit: number): Promise<OutgoingWebhookCallRow[]> =>
  db
    .select()
    .from(outgoingWebhookCalls)
    .where(lte(outgoingWebhookCalls.nextAttemptAt, nowMs))
    .orderBy(asc(outgoingWebhookCalls.nextAttemptAt))
    .limit(limit)
    .all();

/** When the next call is due (UNIX ms), or null when none waits. */
export const nextOutgoingWebhookDue = async (db: Db): Promise<number | null> =>
  db
    .select({ at: min(outgoingWebhookCalls.nextAttemptAt) })
    .from(outgoingWebhookCalls)
    .get()?.at ?? null;

export const deleteOutgoingWebhookCall = async (db: Db, id: number) => db.delete(outgoingWebhookCalls).where(eq(outgoingWebhookCalls.id, id)).run();

export const rescheduleOutgoingWebhookCall = async (db: Db, id: number, attempts: number, nextAttemptAt: number) =>
  db.update(outgoingWebhookCalls).set({ attempts, nextAttemptAt }).where(eq(outgoingWebhookCalls.id, id)).run();
