import { and, desc, eq } from "drizzle-orm";
import type { Db } from "../db/client";
import { type DraftRow } from "../db/schema";
import { tables } from "../db/engine";
import { first, all, run } from "../db/query";

export type DraftColumns = Pick<DraftRow, "type" | "to" | "topic" | "content" | "timestamp">;

/** A user's drafts, the most recently edited first (Zulip's documented order). */
export const listDrafts = async (db: Db, userId: number): Promise<DraftRow[]> => {
  const { drafts } = tables(db);
  return all(db.select().from(drafts).where(eq(drafts.userId, userId)).orderBy(desc(drafts.timestamp), desc(drafts.id)));
};

export const findDraft = async (db: Db, userId: number, id: number): Promise<DraftRow | undefined> => {
  const { drafts } = tables(db);
  return first(
    db
      .select()
      .from(drafts)
      .where(and(eq(drafts.id, id), eq(drafts.userId, userId))),
  );
};

export const insertDraft = async (db: Db, userId: number, d: DraftColumns): Promise<DraftRow> => {
  const { drafts } = tables(db);
  return first(
    db
      .insert(drafts)
      .values({ userId, ...d })
      .returning(),
  );
};

export const updateDraft = async (db: Db, id: number, d: DraftColumns): Promise<DraftRow> => {
  const { drafts } = tables(db);
  return (await first(db.update(drafts).set(d).where(eq(drafts.id, id)).returning()))!;
};

export const deleteDraft = async (db: Db, id: number) => {
  const { drafts } = tables(db);
  return run(db.delete(drafts).where(eq(drafts.id, id)));
};

/** All of a user's server drafts (enable_drafts_synchronization turned off). */
export const deleteAllDrafts = async (db: Db, userId: number) => {
  const { drafts } = tables(db);
  return run(db.delete(drafts).where(eq(drafts.userId, userId)));
};
