import { and, asc, eq } from "drizzle-orm";
import type { Db } from "../db/client";
import { realmEmoji, type RealmEmojiRow } from "../db/schema";

export const listRealmEmoji = (db: Db, realmId: number): RealmEmojiRow[] =>
  db.select().from(realmEmoji).where(eq(realmEmoji.realmId, realmId)).orderBy(asc(realmEmoji.id)).all();

/** The active emoji of that name, if any. */
export const findActiveEmoji = (db: Db, realmId: number, name: string): RealmEmojiRow | undefined =>
  db
    .select()
    .from(realmEmoji)
    .where(and(eq(realmEmoji.realmId, realmId), eq(realmEmoji.name, name), eq(realmEmoji.deactivated, false)))
    .get();

export const insertRealmEmoji = (db: Db, row: typeof realmEmoji.$inferInsert): RealmEmojiRow => db.insert(realmEmoji).values(row).returning().get();

export const updateRealmEmoji = (db: Db, id: number, patch: Partial<typeof realmEmoji.$inferInsert>): RealmEmojiRow =>
  db.update(realmEmoji).set(patch).where(eq(realmEmoji.id, id)).returning().get()!;
