import { and, asc, eq } from "drizzle-orm";
import type { Db } from "../db/client";
import { realmPlaygrounds, type RealmPlaygroundRow } from "../db/schema";

export const listPlaygrounds = async (db: Db, realmId: number): Promise<RealmPlaygroundRow[]> =>
  db.select().from(realmPlaygrounds).where(eq(realmPlaygrounds.realmId, realmId)).orderBy(asc(realmPlaygrounds.id)).all();

export const findPlayground = async (db: Db, realmId: number, id: number): Promise<RealmPlaygroundRow | undefined> =>
  db
    .select()
    .from(realmPlaygrounds)
    .where(and(eq(realmPlaygrounds.realmId, realmId), eq(realmPlaygrounds.id, id)))
    .get();

export const findPlaygroundByName = async (db: Db, realmId: number, language: string, name: string): Promise<RealmPlaygroundRow | undefined> =>
  db
    .select()
    .from(realmPlaygrounds)
    .where(and(eq(realmPlaygrounds.realmId, realmId), eq(realmPlaygrounds.pygmentsLanguage, language), eq(realmPlaygrounds.name, name)))
    .get();

export const insertPlayground = async (db: Db, r: Omit<RealmPlaygroundRow, "id">): Promise<RealmPlaygroundRow> =>
  db.insert(realmPlaygrounds).values(r).returning().get();

export const deletePlayground = async (db: Db, id: number) => db.delete(realmPlaygrounds).where(eq(realmPlaygrounds.id, id)).run();
