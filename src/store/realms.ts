import { asc, eq } from "drizzle-orm";
import type { Db } from "../db/client";
import { realms, type RealmRow } from "../db/schema";

export const findRealmById = (db: Db, id: number): RealmRow | undefined => db.select().from(realms).where(eq(realms.id, id)).get();

export const findRealmByStringId = (db: Db, stringId: string): RealmRow | undefined =>
  db.select().from(realms).where(eq(realms.stringId, stringId)).get();

export const listRealms = (db: Db): RealmRow[] => db.select().from(realms).orderBy(asc(realms.id)).all();

export const insertRealm = (db: Db, r: typeof realms.$inferInsert): RealmRow => db.insert(realms).values(r).returning().get();

export const updateRealm = (db: Db, id: number, patch: Partial<typeof realms.$inferInsert>) =>
  db.update(realms).set(patch).where(eq(realms.id, id)).run();
