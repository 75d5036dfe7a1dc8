import { asc, eq, sql } from "drizzle-orm";
import type { Db } from "../db/client";
import { preparedPerDb } from "../db/prepared";
import { realms, type RealmRow } from "../db/schema";

export const findRealmById = async (db: Db, id: number): Promise<RealmRow | undefined> => db.select().from(realms).where(eq(realms.id, id)).get();

const byStringId = preparedPerDb((db) =>
  db
    .select()
    .from(realms)
    .where(eq(realms.stringId, sql.placeholder("stringId")))
    .prepare(),
);

/** Every request's realm, by the subdomain of its Host header. */
export const findRealmByStringId = async (db: Db, stringId: string): Promise<RealmRow | undefined> => byStringId(db).get({ stringId });

export const listRealms = async (db: Db): Promise<RealmRow[]> => db.select().from(realms).orderBy(asc(realms.id)).all();

export const insertRealm = async (db: Db, r: typeof realms.$inferInsert): Promise<RealmRow> => db.insert(realms).values(r).returning().get();

export const updateRealm = async (db: Db, id: number, patch: Partial<typeof realms.$inferInsert>) =>
  db.update(realms).set(patch).where(eq(realms.id, id)).run();
