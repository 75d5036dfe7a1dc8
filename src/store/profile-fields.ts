import { and, asc, eq, max, sql } from "drizzle-orm";
import type { Db } from "../db/client";
import { preparedPerDb } from "../db/prepared";
import { profileFields, profileFieldValues, users, type ProfileFieldRow } from "../db/schema";

export const listProfileFields = async (db: Db, realmId: number): Promise<ProfileFieldRow[]> =>
  db.select().from(profileFields).where(eq(profileFields.realmId, realmId)).orderBy(asc(profileFields.order), asc(profileFields.id)).all();

export const findProfileField = async (db: Db, realmId: number, id: number): Promise<ProfileFieldRow | undefined> =>
  db
    .select()
    .from(profileFields)
    .where(and(eq(profileFields.realmId, realmId), eq(profileFields.id, id)))
    .get();

export const findProfileFieldByName = async (db: Db, realmId: number, name: string): Promise<ProfileFieldRow | undefined> =>
  db
    .select()
    .from(profileFields)
    .where(and(eq(profileFields.realmId, realmId), eq(profileFields.name, name)))
    .get();

export const nextFieldOrder = async (db: Db, realmId: number): Promise<number> =>
  (db
    .select({ m: max(profileFields.order) })
    .from(profileFields)
    .where(eq(profileFields.realmId, realmId))
    .get()?.m ?? 0) + 1;

export const insertProfileField = async (db: Db, f: typeof profileFields.$inferInsert): Promise<ProfileFieldRow> =>
  db.insert(profileFields).values(f).returning().get();

export const setFieldOrder = async (db: Db, id: number, order: number) => db.update(profileFields).set({ order }).where(eq(profileFields.id, id)).run();

const userValues = preparedPerDb((db) =>
  db
    .select()
    .from(profileFieldValues)
    .where(eq(profileFieldValues.userId, sql.placeholder("userId")))
    .prepare(),
);

/** One user's values by field id (GET /users/me asks on every call). */
export const listUserFieldValues = async (db: Db, userId: number): Promise<Map<number, string>> =>
  new Map(
    userValues(db)
      .all({ userId })
      .map((v) => [v.fieldId, v.value]),
  );

/** Every value in a realm, by user id then field id (register, GET /users). */
export async function listRealmFieldValues(db: Db, realmId: number): Promise<Map<number, Map<number, string>>> {
  const out = new Map<number, Map<number, string>>();
  const rows = db
    .select({ u: profileFieldValues.userId, f: profileFieldValues.fieldId, v: profileFieldValues.value })
    .from(profileFieldValues)
    .innerJoin(users, eq(users.id, profileFieldValues.userId))
    .where(eq(users.realmId, realmId))
    .all();
  for (const r of rows) {
    let m = out.get(r.u);
    if (!m) out.set(r.u, (m = new Map()));
    m.set(r.f, r.v);
  }
  return out;
}

export const setFieldValue = async (db: Db, userId: number, fieldId: number, value: string) =>
  db
    .insert(profileFieldValues)
    .values({ userId, fieldId, value })
    .onConflictDoUpdate({ target: [profileFieldValues.userId, profileFieldValues.fieldId], set: { value } })
    .run();

export const clearFieldValue = async (db: Db, userId: number, fieldId: number) =>
  db
    .delete(profileFieldValues)
    .where(and(eq(profileFieldValues.userId, userId), eq(profileFieldValues.fieldId, fieldId)))
    .run();

export const updateProfileField = async (db: Db, id: number, patch: Partial<typeof profileFields.$inferInsert>) =>
  db.update(profileFields).set(patch).where(eq(profileFields.id, id)).run();

/** A field and every user's value for it. */
export async function deleteProfileField(db: Db, id: number) {
  db.delete(profileFieldValues).where(eq(profileFieldValues.fieldId, id)).run();
  db.delete(profileFields).where(eq(profileFields.id, id)).run();
}
