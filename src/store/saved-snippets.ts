import { and, asc, eq } from "drizzle-orm";
import type { Db } from "../db/client";
import { type savedSnippets, type SavedSnippetRow } from "../db/schema";
import { tables } from "../db/engine";
import { first, all, run } from "../db/query";

export const listSnippets = async (db: Db, userId: number): Promise<SavedSnippetRow[]> => {
  const { savedSnippets } = tables(db);
  return all(db.select().from(savedSnippets).where(eq(savedSnippets.userId, userId)).orderBy(asc(savedSnippets.id)));
};

export const findSnippet = async (db: Db, userId: number, id: number): Promise<SavedSnippetRow | undefined> => {
  const { savedSnippets } = tables(db);
  return first(
    db
      .select()
      .from(savedSnippets)
      .where(and(eq(savedSnippets.id, id), eq(savedSnippets.userId, userId))),
  );
};

export const insertSnippet = async (db: Db, s: typeof savedSnippets.$inferInsert): Promise<SavedSnippetRow> => {
  const { savedSnippets } = tables(db);
  return first(db.insert(savedSnippets).values(s).returning());
};

export const updateSnippet = async (db: Db, id: number, patch: Partial<Pick<SavedSnippetRow, "title" | "content">>): Promise<SavedSnippetRow> => {
  const { savedSnippets } = tables(db);
  return (await first(db.update(savedSnippets).set(patch).where(eq(savedSnippets.id, id)).returning()))!;
};

export const deleteSnippet = async (db: Db, id: number) => {
  const { savedSnippets } = tables(db);
  return run(db.delete(savedSnippets).where(eq(savedSnippets.id, id)));
};
