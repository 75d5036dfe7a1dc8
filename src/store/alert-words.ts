import { and, asc, eq, inArray } from "drizzle-orm";
import type { Db } from "../db/client";
import { tables } from "../db/engine";
import { all, run } from "../db/query";

export const listAlertWords = async (db: Db, userId: number): Promise<string[]> => {
  const { alertWords } = tables(db);
  return (await all(db.select({ w: alertWords.word }).from(alertWords).where(eq(alertWords.userId, userId)).orderBy(asc(alertWords.word)))).map((r) => r.w);
};

export async function addAlertWords(db: Db, userId: number, words: string[]) {
  const { alertWords } = tables(db);
  if (words.length)
    await run(
      db
        .insert(alertWords)
        .values(words.map((word) => ({ userId, word })))
        .onConflictDoNothing(),
    );
}

export async function removeAlertWords(db: Db, userId: number, words: string[]) {
  const { alertWords } = tables(db);
  if (words.length) await run(db.delete(alertWords).where(and(eq(alertWords.userId, userId), inArray(alertWords.word, words))));
}
