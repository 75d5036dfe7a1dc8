import { and, asc, eq } from "drizzle-orm";
import type { Db } from "../db/client";
import { realmPlaygrounds, type RealmPlaygroundRow } from "../db/schema";

export const listPlaygrounds = (db: Db, realmId: number): RealmPlaygroundRow[] =>
  db.select().from(realmPlaygrounds).where(eq(realmPlaygrounds.realmId, realmId)).orderBy(asc(realmPlaygrounds.id)).all();

export const findPlayground = (db: Db, realmId: number, id: number): RealmPlaygroundRow | undefined =>
  db
    .select()
    .from(realmPlaygrounds)
    .where(and(eq(realmPlaygrounds.realmId, realmId), eq(realmPlaygrounds.id, id)))
    .get();

export const findPlaygroundByName = (db: Db, realmId: number, language: string, name: string): RealmPlaygroundRow | undefined =>
  db
    .select()
    .from(realmPlaygrounds)
    .where(and(eq(realmPlaygrounds.realmId, realmId), eq(realmPlaygrounds.pygmentsLanguage, language), eq(realmPlaygrounds.name, name)))
    .get();

export const insertPlayground = (db: Db, r: Omit<RealmPlaygroundRow, "id">): RealmPlaygroundRow => db.insert(realmPlaygrounds).values(r).returning().get();

export const deletePlayground = (db: Db, id: number) => db.delete(realmPlaygrounds).where(eq(realmPlaygrounds.id, id)).run();
