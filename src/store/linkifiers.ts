import { and, asc, eq, sql } from "drizzle-orm";
import type { Db } from "../db/client";
import { preparedPerDb } from "../db/prepared";
import { linkifiers, type LinkifierRow } from "../db/schema";

const byRealm = preparedPerDb((db) =>
  db
    .select()
    .from(linkifiers)
    .where(eq(linkifiers.realmId, sql.placeholder("realmId")))
    .orderBy(asc(linkifiers.order), asc(linkifiers.id))
    .prepare(),
);

/** The realm's linkifiers in order (prepared once: every message render and topic link reads them). */
export const listLinkifiers = async (db: Db, realmId: number): Promise<LinkifierRow[]> => byRealm(db).all({ realmId });

export const findLinkifier = async (db: Db, realmId: number, id: number): Promise<LinkifierRow | undefined> =>
  db
    .select()
    .from(linkifiers)
    .where(and(eq(linkifiers.realmId, realmId), eq(linkifiers.id, id)))
    .get();

export const findLinkifierByPattern = async (db: Db, realmId: number, pattern: string): Promise<LinkifierRow | undefined> =>
  db
    .select()
    .from(linkifiers)
    .where(and(eq(linkifiers.realmId, realmId), eq(linkifiers.pattern, pattern)))
    .get();

export const insertLinkifier = async (db: Db, row: typeof linkifiers.$inferInsert): Promise<LinkifierRow> =>
  db.insert(linkifiers).values(row).returning().get();

export const updateLinkifier = async (db: Db, id: number, patch: Partial<typeof linkifiers.$inferInsert>) =>
  db.update(linkifiers).set(patch).where(eq(linkifiers.id, id)).run();

export const deleteLinkifier = async (db: Db, id: number) => db.delete(linkifiers).where(eq(linkifiers.id, id)).run();
