import { and, asc, eq, inArray } from "drizzle-orm";
import type { Db } from "../db/client";
import { alertWords } from "../db/schema";

export const listAlertWords = async (db: Db, userId: number): Promise<string[]> =>
  db
    .select({ w: alertWords.word })
    .from(alertWords)
    .where(eq(alertWords.userId, userId))
    .orderBy(asc(alertWords.word))
    .all()
    .map((r) => r.w);

export async function addAlertWords(db: Db, userId: number, words: string[]) {
  if (words.length)
    db.insert(alertWords)
      .values(words.map((word) => ({ userId, word })))
      .onConflictDoNothing()
      .run();
}

export async function removeAlertWords(db: Db, userId: number, words: string[]) {
  if (words.length)
    db.delete(alertWords)
      .where(and(eq(alertWords.userId, userId), inArray(alertWords.word, words)))
      .run();
}
