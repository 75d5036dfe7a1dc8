import { and, asc, eq } from "drizzle-orm";
import type { Db } from "../db/client";
import { type realmEmoji, type RealmEmojiRow } from "../db/schema";
import { tables } from "../db/engine";
import { first, all } from "../db/query";

export const listRealmEmoji = async (db: Db, realmId: number): Promise<RealmEmojiRow[]> => {
  const { realmEmoji } = tables(db);
  return all(db.select().from(realmEmoji).where(eq(realmEmoji.realmId, realmId)).orderBy(asc(realmEmoji.id)));
};

/** The active emoji of that name, if any. */
export const findActiveEmoji = async (db: Db, realmId: number, name: string): Promise<RealmEmojiRow | undefined> => {
  const { realmEmoji } = tables(db);
  return first(
    db
      .select()
      .from(realmEmoji)
      .where(and(eq(realmEmoji.realmId, realmId), eq(realmEmoji.name, name), eq(realmEmoji.deactivated, false))),
  );
};

export const insertRealmEmoji = async (db: Db, row: typeof realmEmoji.$inferInsert): Promise<RealmEmojiRow> => {
  const { realmEmoji } = tables(db);
  return first(db.insert(realmEmoji).values(row).returning());
};

export const updateRealmEmoji = async (db: Db, id: number, patch: Partial<typeof realmEmoji.$inferInsert>): Promise<RealmEmojiRow> => {
  const { realmEmoji } = tables(db);
  return (await first(db.update(realmEmoji).set(patch).where(eq(realmEmoji.id, id)).returning()))!;
};
