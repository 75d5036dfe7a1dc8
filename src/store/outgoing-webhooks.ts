import { asc, eq, lte, min } from "drizzle-orm";
import type { Db } from "../db/client";
import { type outgoingWebhookCalls, type OutgoingWebhookCallRow } from "../db/schema";
import { tables } from "../db/engine";
import { first, all, run } from "../db/query";

export const insertOutgoingWebhookCall = async (db: Db, c: typeof outgoingWebhookCalls.$inferInsert) => {
  const { outgoingWebhookCalls } = tables(db);
  return run(db.insert(outgoingWebhookCalls).values(c));
};

/** Calls due by `nowMs`, oldest first. */
export const listDueOutgoingWebhookCalls = async (db: Db, nowMs: number, limit: number): Promise<OutgoingWebhookCallRow[]> => {
  const { outgoingWebhookCalls } = tables(db);
  return all(
    db.select().from(outgoingWebhookCalls).where(lte(outgoingWebhookCalls.nextAttemptAt, nowMs)).orderBy(asc(outgoingWebhookCalls.nextAttemptAt)).limit(limit),
  );
};

/** When the next call is due (UNIX ms), or null when none waits. */
export const nextOutgoingWebhookDue = async (db: Db): Promise<number | null> => {
  const { outgoingWebhookCalls } = tables(db);
  return (await first(db.select({ at: min(outgoingWebhookCalls.nextAttemptAt) }).from(outgoingWebhookCalls)))?.at ?? null;
};

export const deleteOutgoingWebhookCall = async (db: Db, id: number) => {
  const { outgoingWebhookCalls } = tables(db);
  return run(db.delete(outgoingWebhookCalls).where(eq(outgoingWebhookCalls.id, id)));
};

export const rescheduleOutgoingWebhookCall = async (db: Db, id: number, attempts: number, nextAttemptAt: number) => {
  const { outgoingWebhookCalls } = tables(db);
  return run(db.update(outgoingWebhookCalls).set({ attempts, nextAttemptAt }).where(eq(outgoingWebhookCalls.id, id)));
};
