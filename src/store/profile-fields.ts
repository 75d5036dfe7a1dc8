import { and, asc, eq, max, sql } from "drizzle-orm";
import type { Db } from "../db/client";
import { preparedPerDb } from "../db/prepared";
import { type profileFields, type ProfileFieldRow } from "../db/schema";
import { tables } from "../db/engine";
import { first, all, run } from "../db/query";

export const listProfileFields = async (db: Db, realmId: number): Promise<ProfileFieldRow[]> => {
  const { profileFields } = tables(db);
  return all(db.select().from(profileFields).where(eq(profileFields.realmId, realmId)).orderBy(asc(profileFields.order), asc(profileFields.id)));
};

export const findProfileField = async (db: Db, realmId: number, id: number): Promise<ProfileFieldRow | undefined> => {
  const { profileFields } = tables(db);
  return first(
    db
      .select()
      .from(profileFields)
      .where(and(eq(profileFields.realmId, realmId), eq(profileFields.id, id))),
  );
};

export const findProfileFieldByName = async (db: Db, realmId: number, name: string): Promise<ProfileFieldRow | undefined> => {
  const { profileFields } = tables(db);
  return first(
    db
      .select()
      .from(profileFields)
      .where(and(eq(profileFields.realmId, realmId), eq(profileFields.name, name))),
  );
};

export const nextFieldOrder = async (db: Db, realmId: number): Promise<number> => {
  const { profileFields } = tables(db);
  return (
    ((
      await first(
        db
          .select({ m: max(profileFields.order) })
          .from(profileFields)
          .where(eq(profileFields.realmId, realmId)),
      )
    )?.m ?? 0) + 1
  );
};

export const insertProfileField = async (db: Db, f: typeof profileFields.$inferInsert): Promise<ProfileFieldRow> => {
  const { profileFields } = tables(db);
  return first(db.insert(profileFields).values(f).returning());
};

export const setFieldOrder = async (db: Db, id: number, order: number) => {
  const { profileFields } = tables(db);
  return run(db.update(profileFields).set({ order }).where(eq(profileFields.id, id)));
};

const userValues = preparedPerDb((db) => {
  const { profileFieldValues } = tables(db);
  return db
    .select()
    .from(profileFieldValues)
    .where(eq(profileFieldValues.userId, sql.placeholder("userId")));
});

/** One user's values by field id (GET /users/me asks on every call). */
export const listUserFieldValues = async (db: Db, userId: number): Promise<Map<number, string>> =>
  new Map((await userValues(db).all({ userId })).map((v) => [v.fieldId, v.value]));

/** Every value in a realm, by user id then field id (register, GET /users). */
export async function listRealmFieldValues(db: Db, realmId: number): Promise<Map<number, Map<number, string>>> {
  const { profileFieldValues, users } = tables(db);
  const out = new Map<number, Map<number, string>>();
  const rows = await all(
    db
      .select({ u: profileFieldValues.userId, f: profileFieldValues.fieldId, v: profileFieldValues.value })
      .from(profileFieldValues)
      .innerJoin(users, eq(users.id, profileFieldValues.userId))
      .where(eq(users.realmId, realmId)),
  );
  for (const r of rows) {
    let m = out.get(r.u);
    if (!m) out.set(r.u, (m = new Map()));
    m.set(r.f, r.v);
  }
  return out;
}

export const setFieldValue = async (db: Db, userId: number, fieldId: number, value: string) => {
  const { profileFieldValues } = tables(db);
  return run(
    db
      .insert(profileFieldValues)
      .values({ userId, fieldId, value })
      .onConflictDoUpdate({ target: [profileFieldValues.userId, profileFieldValues.fieldId], set: { value } }),
  );
};

export const clearFieldValue = async (db: Db, userId: number, fieldId: number) => {
  const { profileFieldValues } = tables(db);
  return run(db.delete(profileFieldValues).where(and(eq(profileFieldValues.userId, userId), eq(profileFieldValues.fieldId, fieldId))));
};

export const updateProfileField = async (db: Db, id: number, patch: Partial<typeof profileFields.$inferInsert>) => {
  const { profileFields } = tables(db);
  return run(db.update(profileFields).set(patch).where(eq(profileFields.id, id)));
};

/** A field and every user's value for it. */
export async function deleteProfileField(db: Db, id: number) {
  const { profileFieldValues, profileFields } = tables(db);
  await run(db.delete(profileFieldValues).where(eq(profileFieldValues.fieldId, id)));
  await run(db.delete(profileFields).where(eq(profileFields.id, id)));
}
