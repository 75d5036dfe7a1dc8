import { and, asc, eq, sql } from "drizzle-orm";
import type { Db } from "../db/client";
import { type repositories, type RepositoryRow } from "../db/schema";
import { tables } from "../db/engine";
import { first, all, run } from "../db/query";

export const listRepositories = async (db: Db, realmId: number): Promise<RepositoryRow[]> => {
  const { repositories } = tables(db);
  return all(db.select().from(repositories).where(eq(repositories.realmId, realmId)).orderBy(asc(repositories.id)));
};

export const findRepository = async (db: Db, id: number): Promise<RepositoryRow | undefined> => {
  const { repositories } = tables(db);
  return first(db.select().from(repositories).where(eq(repositories.id, id)));
};

export const findRepositoryByName = async (db: Db, realmId: number, name: string): Promise<RepositoryRow | undefined> => {
  const { repositories } = tables(db);
  return first(
    db
      .select()
      .from(repositories)
      .where(and(eq(repositories.realmId, realmId), sql`lower(${repositories.name}) = lower(${name})`)),
  );
};

export const insertRepository = async (db: Db, row: typeof repositories.$inferInsert): Promise<RepositoryRow> => {
  const { repositories } = tables(db);
  return first(db.insert(repositories).values(row).returning());
};

export const updateRepository = async (db: Db, id: number, patch: Partial<typeof repositories.$inferInsert>): Promise<RepositoryRow> => {
  const { repositories } = tables(db);
  return (await first(db.update(repositories).set(patch).where(eq(repositories.id, id)).returning()))!;
};

export const deleteRepository = async (db: Db, id: number) => {
  const { repositories } = tables(db);
  return run(db.delete(repositories).where(eq(repositories.id, id)));
};
