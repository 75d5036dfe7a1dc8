import { and, desc, eq } from "drizzle-orm";
import type { Db } from "../db/client";
import { drafts, type DraftRow } from "../db/schema";

export type DraftColumns = Pick<DraftRow, "type" | "to" | "topic" | "content" | "timestamp">;

/** A user's drafts, the most recently edited first (Zulip's documented order). */
export const listDrafts = async (db: Db, userId: number): Promise<DraftRow[]> =>
  db.select().from(drafts).where(eq(drafts.userId, userId)).orderBy(desc(drafts.timestamp), desc(drafts.id)).all();

export const findDraft = async (db: Db, userId: number, id: number): Promise<DraftRow | undefined> =>
  db
    .select()
    .from(drafts)
    .where(and(eq(drafts.id, id), eq(drafts.userId, userId)))
    .get();

export const insertDraft = async (db: Db, userId: number, d: DraftColumns): Promise<DraftRow> =>
  db
    .insert(drafts)
    .values({ userId, ...d })
    .returning()
    .get();

export const updateDraft = async (db: Db, id: number, d: DraftColumns): Promise<DraftRow> =>
  db.update(drafts).set(d).where(eq(drafts.id, id)).returning().get()!;

export const deleteDraft = async (db: Db, id: number) => db.delete(drafts).where(eq(drafts.id, id)).run();

/** All of a user's server drafts (enable_drafts_synchronization turned off). */
export const deleteAllDrafts = async (db: Db, userId: number) => db.delete(drafts).where(eq(drafts.userId, userId)).run();
