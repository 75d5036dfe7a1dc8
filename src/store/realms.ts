import { asc, eq, sql } from "drizzle-orm";
import type { Db } from "../db/client";
import { preparedPerDb } from "../db/prepared";
import { type realms, type RealmRow } from "../db/schema";
import { tables } from "../db/engine";
import { first, all, run } from "../db/query";

export const findRealmById = async (db: Db, id: number): Promise<RealmRow | undefined> => {
  const { realms } = tables(db);
  return first(db.select().from(realms).where(eq(realms.id, id)));
};

const byStringId = preparedPerDb((db) => {
  const { realms } = tables(db);
  return db
    .select()
    .from(realms)
    .where(eq(realms.stringId, sql.placeholder("stringId")));
});

/** Every request's realm, by the subdomain of its Host header. */
export const findRealmByStringId = async (db: Db, stringId: string): Promise<RealmRow | undefined> => byStringId(db).get({ stringId });

export const listRealms = async (db: Db): Promise<RealmRow[]> => {
  const { realms } = tables(db);
  return all(db.select().from(realms).orderBy(asc(realms.id)));
};

export const insertRealm = async (db: Db, r: typeof realms.$inferInsert): Promise<RealmRow> => {
  const { realms } = tables(db);
  return first(db.insert(realms).values(r).returning());
};

export const updateRealm = async (db: Db, id: number, patch: Partial<typeof realms.$inferInsert>) => {
  const { realms } = tables(db);
  return run(db.update(realms).set(patch).where(eq(realms.id, id)));
};
