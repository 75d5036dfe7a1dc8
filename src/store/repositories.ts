import { and, asc, eq, sql } from "drizzle-orm";
import type { Db } from "../db/client";
import { repositories, type RepositoryRow } from "../db/schema";

export const listRepositories = async (db: Db, realmId: number): Promise<RepositoryRow[]> =>
  db.select().from(repositories).where(eq(repositories.realmId, realmId)).orderBy(asc(repositories.id)).all();

export const findRepository = async (db: Db, id: number): Promise<RepositoryRow | undefined> =>
  db.select().from(repositories).where(eq(repositories.id, id)).get();

export const findRepositoryByName = async (db: Db, realmId: number, name: string): Promise<RepositoryRow | undefined> =>
  db
    .select()
    .from(repositories)
    .where(and(eq(repositories.realmId, realmId), sql`lower(${repositories.name}) = lower(${name})`))
    .get();

export const insertRepository = async (db: Db, row: typeof repositories.$inferInsert): Promise<RepositoryRow> =>
  db.insert(repositories).values(row).returning().get();

export const updateRepository = async (db: Db, id: number, patch: Partial<typeof repositories.$inferInsert>): Promise<RepositoryRow> =>
  db.update(repositories).set(patch).where(eq(repositories.id, id)).returning().get()!;

export const deleteRepository = async (db: Db, id: number) => db.delete(repositories).where(eq(repositories.id, id)).run();
