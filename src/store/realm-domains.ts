import { and, asc, eq } from "drizzle-orm";
import type { Db } from "../db/client";
import { type RealmDomainRow } from "../db/schema";
import { tables } from "../db/engine";
import { first, all, run } from "../db/query";

export const listRealmDomains = async (db: Db, realmId: number): Promise<RealmDomainRow[]> => {
  const { realmDomains } = tables(db);
  return all(db.select().from(realmDomains).where(eq(realmDomains.realmId, realmId)).orderBy(asc(realmDomains.domain)));
};

export const findRealmDomain = async (db: Db, realmId: number, domain: string): Promise<RealmDomainRow | undefined> => {
  const { realmDomains } = tables(db);
  return first(
    db
      .select()
      .from(realmDomains)
      .where(and(eq(realmDomains.realmId, realmId), eq(realmDomains.domain, domain))),
  );
};

export const insertRealmDomain = async (db: Db, realmId: number, domain: string, allowSubdomains: boolean): Promise<RealmDomainRow> => {
  const { realmDomains } = tables(db);
  return first(db.insert(realmDomains).values({ realmId, domain, allowSubdomains }).returning());
};

export const updateRealmDomain = async (db: Db, id: number, allowSubdomains: boolean): Promise<RealmDomainRow> => {
  const { realmDomains } = tables(db);
  return (await first(db.update(realmDomains).set({ allowSubdomains }).where(eq(realmDomains.id, id)).returning()))!;
};

export const deleteRealmDomain = async (db: Db, id: number) => {
  const { realmDomains } = tables(db);
  return run(db.delete(realmDomains).where(eq(realmDomains.id, id)));
};
