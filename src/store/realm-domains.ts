import { and, asc, eq } from "drizzle-orm";
import type { Db } from "../db/client";
import { realmDomains, type RealmDomainRow } from "../db/schema";

export const listRealmDomains = async (db: Db, realmId: number): Promise<RealmDomainRow[]> =>
  db.select().from(realmDomains).where(eq(realmDomains.realmId, realmId)).orderBy(asc(realmDomains.domain)).all();

export const findRealmDomain = async (db: Db, realmId: number, domain: string): Promise<RealmDomainRow | undefined> =>
  db
    .select()
    .from(realmDomains)
    .where(and(eq(realmDomains.realmId, realmId), eq(realmDomains.domain, domain)))
    .get();

export const insertRealmDomain = async (db: Db, realmId: number, domain: string, allowSubdomains: boolean): Promise<RealmDomainRow> =>
  db.insert(realmDomains).values({ realmId, domain, allowSubdomains }).returning().get();

export const updateRealmDomain = async (db: Db, id: number, allowSubdomains: boolean): Promise<RealmDomainRow> =>
  db.update(realmDomains).set({ allowSubdomains }).where(eq(realmDomains.id, id)).returning().get()!;

export const deleteRealmDomain = async (db: Db, id: number) => db.delete(realmDomains).where(eq(realmDomains.id, id)).run();
