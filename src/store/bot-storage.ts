import { and, asc, eq, inArray, sql } from "drizzle-orm";
import type { Db } from "../db/client";
import { tables } from "../db/engine";
import { first, all, run } from "../db/query";

export const listStorage = async (db: Db, userId: number): Promise<{ key: string; value: string }[]> => {
  const { botStorage } = tables(db);
  return all(db.select({ key: botStorage.key, value: botStorage.value }).from(botStorage).where(eq(botStorage.userId, userId)).orderBy(asc(botStorage.key)));
};

export const storageEntries = async (db: Db, userId: number, keys: string[]): Promise<Map<string, string>> => {
  const { botStorage } = tables(db);
  return new Map(
    keys.length
      ? (
          await all(
            db
              .select({ key: botStorage.key, value: botStorage.value })
              .from(botStorage)
              .where(and(eq(botStorage.userId, userId), inArray(botStorage.key, keys))),
          )
        ).map((r) => [r.key, r.value])
      : [],
  );
};

/** Characters stored: every key and value, as Zulip counts them against the limit. */
export const storageSize = async (db: Db, userId: number): Promise<number> => {
  const { botStorage } = tables(db);
  return (await first(
    db
      .select({ n: sql<number>`coalesce(sum(length(${botStorage.key}) + length(${botStorage.value})), 0)`.mapWith(Number) })
      .from(botStorage)
      .where(eq(botStorage.userId, userId)),
  ))!.n;
};

export const putStorage = async (db: Db, userId: number, key: string, value: string) => {
  const { botStorage } = tables(db);
  return run(
    db
      .insert(botStorage)
      .values({ userId, key, value })
      .onConflictDoUpdate({ target: [botStorage.userId, botStorage.key], set: { value } }),
  );
};

export const deleteStorage = async (db: Db, userId: number, keys: string[]) => {
  const { botStorage } = tables(db);
  return run(db.delete(botStorage).where(and(eq(botStorage.userId, userId), inArray(botStorage.key, keys))));
};
