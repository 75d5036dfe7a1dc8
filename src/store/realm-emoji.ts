import { and, asc, eq } from "drizzle-orm";
import type { Db } from "../db/client";
import { realmEmoji, type RealmEmojiRow } from "../db/schema";

export const listRealmEmoji = async (db: Db, realmId: number): Promise<RealmEmojiRow[]> =>
  db.select().from(realmEmoji).where(eq(realmEmoji.realmId, realmId)).orderBy(asc(realmEmoji.id)).all();

/** The active emoji of that name, if any. */
export const findActiveEmoji = async (db: Db, realmId: number, name: string): Promise<RealmEmojiRow | undefined> =>
  db
    .select()
    .from(realmEmoji)
    .where(and(eq(realmEmoji.realmId, realmId), eq(realmEmoji.name, name), eq(realmEmoji.deactivated, false)))
    .get();

export const insertRealmEmoji = async (db: Db, row: typeof realmEmoji.$inferInsert): Promise<RealmEmojiRow> =>
  db.insert(realmEmoji).values(row).returning().get();

export const updateRealmEmoji = async (db: Db, id: number, patch: Partial<typeof realmEmoji.$inferInsert>): Promise<RealmEmojiRow> =>
  db.update(realmEmoji).set(patch).where(eq(realmEmoji.id, id)).returning().get()!;
