import { and, asc, eq, sql } from "drizzle-orm";
import type { Db } from "../db/client";
import { preparedPerDb } from "../db/prepared";
import { type linkifiers, type LinkifierRow } from "../db/schema";
import { tables } from "../db/engine";
import { first, run } from "../db/query";

const byRealm = preparedPerDb((db) => {
  const { linkifiers } = tables(db);
  return db
    .select()
    .from(linkifiers)
    .where(eq(linkifiers.realmId, sql.placeholder("realmId")))
    .orderBy(asc(linkifiers.order), asc(linkifiers.id));
});

/** The realm's linkifiers in order (prepared once: every message render and topic link reads them). */
export const listLinkifiers = async (db: Db, realmId: number): Promise<LinkifierRow[]> => byRealm(db).all({ realmId });

export const findLinkifier = async (db: Db, realmId: number, id: number): Promise<LinkifierRow | undefined> => {
  const { linkifiers } = tables(db);
  return first(
    db
      .select()
      .from(linkifiers)
      .where(and(eq(linkifiers.realmId, realmId), eq(linkifiers.id, id))),
  );
};

export const findLinkifierByPattern = async (db: Db, realmId: number, pattern: string): Promise<LinkifierRow | undefined> => {
  const { linkifiers } = tables(db);
  return first(
    db
      .select()
      .from(linkifiers)
      .where(and(eq(linkifiers.realmId, realmId), eq(linkifiers.pattern, pattern))),
  );
};

export const insertLinkifier = async (db: Db, row: typeof linkifiers.$inferInsert): Promise<LinkifierRow> => {
  const { linkifiers } = tables(db);
  return first(db.insert(linkifiers).values(row).returning());
};

export const updateLinkifier = async (db: Db, id: number, patch: Partial<typeof linkifiers.$inferInsert>) => {
  const { linkifiers } = tables(db);
  return run(db.update(linkifiers).set(patch).where(eq(linkifiers.id, id)));
};

export const deleteLinkifier = async (db: Db, id: number) => {
  const { linkifiers } = tables(db);
  return run(db.delete(linkifiers).where(eq(linkifiers.id, id)));
};
