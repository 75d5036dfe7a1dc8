import { and, asc, eq, inArray, sql } from "drizzle-orm";
import type { Db } from "../db/client";
import { botStorage } from "../db/schema";

export const listStorage = async (db: Db, userId: number): Promise<{ key: string; value: string }[]> =>
  db.select({ key: botStorage.key, value: botStorage.value }).from(botStorage).where(eq(botStorage.userId, userId)).orderBy(asc(botStorage.key)).all();

export const storageEntries = async (db: Db, userId: number, keys: string[]): Promise<Map<string, string>> =>
  new Map(
    keys.length
      ? db
          .select({ key: botStorage.key, value: botStorage.value })
          .from(botStorage)
          .where(and(eq(botStorage.userId, userId), inArray(botStorage.key, keys)))
          .all()
          .map((r) => [r.key, r.value])
      : [],
  );

/** Characters stored: every key and value, as Zulip counts them against the limit. */
export const storageSize = async (db: Db, userId: number): Promise<number> =>
  db
    .select({ n: sql<number>`coalesce(sum(length(${botStorage.key}) + length(${botStorage.value})), 0)` })
    .from(botStorage)
    .where(eq(botStorage.userId, userId))
    .get()!.n;

export const putStorage = async (db: Db, userId: number, key: string, value: string) =>
  db
    .insert(botStorage)
    .values({ userId, key, value })
    .onConflictDoUpdate({ target: [botStorage.userId, botStorage.key], set: { value } })
    .run();

export const deleteStorage = async (db: Db, userId: number, keys: string[]) =>
  db
    .delete(botStorage)
    .where(and(eq(botStorage.userId, userId), inArray(botStorage.key, keys)))
    .run();
