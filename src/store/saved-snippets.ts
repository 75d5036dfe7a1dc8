import { and, asc, eq } from "drizzle-orm";
import type { Db } from "../db/client";
import { savedSnippets, type SavedSnippetRow } from "../db/schema";

export const listSnippets = (db: Db, userId: number): SavedSnippetRow[] =>
  db.select().from(savedSnippets).where(eq(savedSnippets.userId, userId)).orderBy(asc(savedSnippets.id)).all();

export const findSnippet = (db: Db, userId: number, id: number): SavedSnippetRow | undefined =>
  db
    .select()
    .from(savedSnippets)
    .where(and(eq(savedSnippets.id, id), eq(savedSnippets.userId, userId)))
    .get();

export const insertSnippet = (db: Db, s: typeof savedSnippets.$inferInsert): SavedSnippetRow => db.insert(savedSnippets).values(s).returning().get();

export const updateSnippet = (db: Db, id: number, patch: Partial<Pick<SavedSnippetRow, "title" | "content">>): SavedSnippetRow =>
  db.update(savedSnippets).set(patch).where(eq(savedSnippets.id, id)).returning().get()!;

export const deleteSnippet = (db: Db, id: number) => db.delete(savedSnippets).where(eq(savedSnippets.id, id)).run();
