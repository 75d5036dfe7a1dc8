import { eq } from "drizzle-orm";
import type { Db } from "../db/client";
import { userStatuses, users, type UserStatusRow } from "../db/schema";

export const findUserStatus = async (db: Db, userId: number): Promise<UserStatusRow | undefined> =>
  db.select().from(userStatuses).where(eq(userStatuses.userId, userId)).get();

export const saveUserStatus = async (db: Db, s: UserStatusRow) =>
  db.insert(userStatuses).values(s).onConflictDoUpdate({ target: userStatuses.userId, set: s }).run();

/** Every status set by an active user of the realm. */
export const listRealmStatuses = async (db: Db, realmId: number): Promise<UserStatusRow[]> =>
  db
    .select({ s: userStatuses })
    .from(userStatuses)
    .innerJoin(users, eq(users.id, userStatuses.userId))
    .where(eq(users.realmId, realmId))
    .all()
    .map((r) => r.s);
