import { and, asc, eq, inArray } from "drizzle-orm";
import type { Db } from "../db/client";
import { inIds } from "../db/in-ids";
import { type secrets, type SecretRow } from "../db/schema";
import { tables } from "../db/engine";
import { first, all, run } from "../db/query";

export const listSecrets = async (db: Db, realmId: number): Promise<SecretRow[]> => {
  const { secrets } = tables(db);
  return all(db.select().from(secrets).where(eq(secrets.realmId, realmId)).orderBy(asc(secrets.name)));
};

export const findSecret = async (db: Db, realmId: number, name: string): Promise<SecretRow | undefined> => {
  const { secrets } = tables(db);
  return first(
    db
      .select()
      .from(secrets)
      .where(and(eq(secrets.realmId, realmId), eq(secrets.name, name))),
  );
};

export const insertSecret = async (db: Db, row: typeof secrets.$inferInsert): Promise<SecretRow> => {
  const { secrets } = tables(db);
  return first(db.insert(secrets).values(row).returning());
};

export const updateSecret = async (db: Db, id: number, patch: Partial<typeof secrets.$inferInsert>): Promise<SecretRow> => {
  const { secrets } = tables(db);
  return (await first(db.update(secrets).set(patch).where(eq(secrets.id, id)).returning()))!;
};

export const deleteSecret = async (db: Db, id: number) => {
  const { secrets } = tables(db);
  return run(db.delete(secrets).where(eq(secrets.id, id)));
};

/** The named secrets a run gets (names that do not exist are simply absent). */
export const findSecretsByName = async (db: Db, realmId: number, names: readonly string[]): Promise<SecretRow[]> => {
  const { secrets } = tables(db);
  return names.length
    ? await all(
        db
          .select()
          .from(secrets)
          .where(and(eq(secrets.realmId, realmId), inArray(secrets.name, [...names]))),
      )
    : [];
};

export const markSecretsUsed = async (db: Db, ids: readonly number[], at: number) => {
  const { secrets } = tables(db);
  return (
    ids.length &&
    (await run(
      db
        .update(secrets)
        .set({ dateUsed: at })
        .where(inIds(db, secrets.id, ids)),
    ))
  );
};
