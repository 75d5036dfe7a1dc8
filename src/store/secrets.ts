import { and, asc, eq, inArray } from "drizzle-orm";
import type { Db } from "../db/client";
import { inIds } from "../db/in-ids";
import { secrets, type SecretRow } from "../db/schema";

export const listSecrets = async (db: Db, realmId: number): Promise<SecretRow[]> =>
  db.select().from(secrets).where(eq(secrets.realmId, realmId)).orderBy(asc(secrets.name)).all();

export const findSecret = async (db: Db, realmId: number, name: string): Promise<SecretRow | undefined> =>
  db
    .select()
    .from(secrets)
    .where(and(eq(secrets.realmId, realmId), eq(secrets.name, name)))
    .get();

export const insertSecret = async (db: Db, row: typeof secrets.$inferInsert): Promise<SecretRow> => db.insert(secrets).values(row).returning().get();

export const updateSecret = async (db: Db, id: number, patch: Partial<typeof secrets.$inferInsert>): Promise<SecretRow> =>
  db.update(secrets).set(patch).where(eq(secrets.id, id)).returning().get()!;

export const deleteSecret = async (db: Db, id: number) => db.delete(secrets).where(eq(secrets.id, id)).run();

/** The named secrets a run gets (names that do not exist are simply absent). */
export const findSecretsByName = async (db: Db, realmId: number, names: readonly string[]): Promise<SecretRow[]> =>
  names.length
    ? db
        .select()
        .from(secrets)
        .where(and(eq(secrets.realmId, realmId), inArray(secrets.name, [...names])))
        .all()
    : [];

export const markSecretsUsed = async (db: Db, ids: readonly number[], at: number) =>
  ids.length && db.update(secrets).set({ dateUsed: at }).where(inIds(secrets.id, ids)).run();
