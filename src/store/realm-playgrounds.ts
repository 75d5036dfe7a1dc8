import { and, asc, eq } from "drizzle-orm";
import type { Db } from "../db/client";
import { type RealmPlaygroundRow } from "../db/schema";
import { tables } from "../db/engine";
import { first, all, run } from "../db/query";

export const listPlaygrounds = async (db: Db, realmId: number): Promise<RealmPlaygroundRow[]> => {
  const { realmPlaygrounds } = tables(db);
  return all(db.select().from(realmPlaygrounds).where(eq(realmPlaygrounds.realmId, realmId)).orderBy(asc(realmPlaygrounds.id)));
};

export const findPlayground = async (db: Db, realmId: number, id: number): Promise<RealmPlaygroundRow | undefined> => {
  const { realmPlaygrounds } = tables(db);
  return first(
    db
      .select()
      .from(realmPlaygrounds)
      .where(and(eq(realmPlaygrounds.realmId, realmId), eq(realmPlaygrounds.id, id))),
  );
};

export const findPlaygroundByName = async (db: Db, realmId: number, language: string, name: string): Promise<RealmPlaygroundRow | undefined> => {
  const { realmPlaygrounds } = tables(db);
  return first(
    db
      .select()
      .from(realmPlaygrounds)
      .where(and(eq(realmPlaygrounds.realmId, realmId), eq(realmPlaygrounds.pygmentsLanguage, language), eq(realmPlaygrounds.name, name))),
  );
};

export const insertPlayground = async (db: Db, r: Omit<RealmPlaygroundRow, "id">): Promise<RealmPlaygroundRow> => {
  const { realmPlaygrounds } = tables(db);
  return first(db.insert(realmPlaygrounds).values(r).returning());
};

export const deletePlayground = async (db: Db, id: number) => {
  const { realmPlaygrounds } = tables(db);
  return run(db.delete(realmPlaygrounds).where(eq(realmPlaygrounds.id, id)));
};
