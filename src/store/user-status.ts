import { eq } from "drizzle-orm";
import type { Db } from "../db/client";
import { type UserStatusRow } from "../db/schema";
import { tables } from "../db/engine";
import { first, all, run } from "../db/query";

export const findUserStatus = async (db: Db, userId: number): Promise<UserStatusRow | undefined> => {
  const { userStatuses } = tables(db);
  return first(db.select().from(userStatuses).where(eq(userStatuses.userId, userId)));
};

export const saveUserStatus = async (db: Db, s: UserStatusRow) => {
  const { userStatuses } = tables(db);
  return run(db.insert(userStatuses).values(s).onConflictDoUpdate({ target: userStatuses.userId, set: s }));
};

/** Every status set by an active user of the realm. */
export const listRealmStatuses = async (db: Db, realmId: number): Promise<UserStatusRow[]> => {
  const { userStatuses, users } = tables(db);
  return (
    await all(db.select({ s: userStatuses }).from(userStatuses).innerJoin(users, eq(users.id, userStatuses.userId)).where(eq(users.realmId, realmId)))
  ).map((r) => r.s);
};
