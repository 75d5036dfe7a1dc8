import { and, asc, eq, sql } from "drizzle-orm";
import type { Db } from "../db/client";
import { repositories, type RepositoryRow } from "../db/schema";

export const listRepositories = (db: Db, realmId: number): RepositoryRow[] =>
  db.select().from(repositories).where(eq(repositories.realmId, realmId)).orderBy(asc(repositories.id)).all();

export const findRepository = (db: Db, id: number): RepositoryRow | undefined => db.select().from(repositories).where(eq(repositories.id, id)).get();

export const findRepositoryByName = (db: Db, realmId: number, name: string): RepositoryRow | undefined =>
  db
    .select()
    .from(repositories)
    .where(and(eq(repositories.realmId, realmId), sql`lower(${repositories.name}) = lower(${name})`))
    .get();

export const insertRepository = (db: Db, row: typeof repositories.$inferInsert): RepositoryRow => db.insert(repositories).values(row).returning().get();

export const updateRepository = (db: Db, id: number, patch: Partial<typeof repositories.$inferInsert>): RepositoryRow =>
  db.update(repositories).set(patch).where(eq(repositories.id, id)).returning().get()!;

export const deleteRepository = (db: Db, id: number) => db.delete(repositories).where(eq(repositories.id, id)).run();
