import { and, asc, eq } from "drizzle-orm";
import type { Db } from "../db/client";
import { realmDomains, type RealmDomainRow } from "../db/schema";

export const listRealmDomains = (db: Db, realmId: number): RealmDomainRow[] =>
  db.select().from(realmDomains).where(eq(realmDomains.realmId, realmId)).orderBy(asc(realmDomains.domain)).all();

export const findRealmDomain = (db: Db, realmId: number, domain: string): RealmDomainRow | undefined =>
  db
    .select()
    .from(realmDomains)
    .where(and(eq(realmDomains.realmId, realmId), eq(realmDomains.domain, domain)))
    .get();

export const insertRealmDomain = (db: Db, realmId: number, domain: string, allowSubdomains: boolean): RealmDomainRow =>
  db.insert(realmDomains).values({ realmId, domain, allowSubdomains }).returning().get();

export const updateRealmDomain = (db: Db, id: number, allowSubdomains: boolean): RealmDomainRow =>
  db.update(realmDomains).set({ allowSubdomains }).where(eq(realmDomains.id, id)).returning().get()!;

export const deleteRealmDomain = (db: Db, id: number) => db.delete(realmDomains).where(eq(realmDomains.id, id)).run();
