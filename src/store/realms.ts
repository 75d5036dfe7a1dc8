import { asc, eq, sql } from "drizzle-orm";
import type { Db } from "../db/client";
import { realms, type RealmRow } from "../db/schema";

export const findRealmById = (db: Db, id: number): RealmRow | undefined => db.select().from(realms).where(eq(realms.id, id)).get();

// Every request looks its realm up by subdomain: prepare the query once per connection (building a
// drizzle query costs ~35 µs, running a prepared one ~4 µs).
const byStringId = new WeakMap<Db, { get(p: { stringId: string }): RealmRow | undefined }>();

export function findRealmByStringId(db: Db, stringId: string): RealmRow | undefined {
  let q = byStringId.get(db);
  if (!q) {
    q = db.select().from(realms).where(eq(realms.stringId, sql.placeholder("stringId"))).prepare();
    byStringId.set(db, q);
  }
  return q.get({ stringId });
}

export const listRealms = (db: Db): RealmRow[] => db.select().from(realms).orderBy(asc(realms.id)).all();

export const insertRealm = (db: Db, r: typeof realms.$inferInsert): RealmRow => db.insert(realms).values(r).returning().get();

export const updateRealm = (db: Db, id: number, patch: Partial<typeof realms.$inferInsert>) =>
  db.update(realms).set(patch).where(eq(realms.id, id)).run();
