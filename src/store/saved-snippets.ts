import { and, asc, eq } from "drizzle-orm";
import type { Db } from "../db/client";
import { savedSnippets, type SavedSnippetRow } from "../db/schema";

export const listSnippets = async (db: Db, userId: number): Promise<SavedSnippetRow[]> =>
  db.select().from(savedSnippets).where(eq(savedSnippets.userId, userId)).orderBy(asc(savedSnippets.id)).all();

export const findSnippet = async (db: Db, userId: number, id: number): Promise<SavedSnippetRow | undefined> =>
  db
    .select()
    .from(savedSnippets)
    .where(and(eq(savedSnippets.id, id), eq(savedSnippets.userId, userId)))
    .get();

export const insertSnippet = async (db: Db, s: typeof savedSnippets.$inferInsert): Promise<SavedSnippetRow> =>
  db.insert(savedSnippets).values(s).returning().get();

export const updateSnippet = async (db: Db, id: number, patch: Partial<Pick<SavedSnippetRow, "title" | "content">>): Promise<SavedSnippetRow> =>
  db.update(savedSnippets).set(patch).where(eq(savedSnippets.id, id)).returning().get()!;

export const deleteSnippet = async (db: Db, id: number) => db.delete(savedSnippets).where(eq(savedSnippets.id, id)).run();
