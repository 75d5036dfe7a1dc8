import { and, asc, eq } from "drizzle-orm";
import type { Db } from "../db/client";
import { tables } from "../db/engine";
import { first, all, run } from "../db/query";

export const listMutedUsers = async (db: Db, userId: number) => {
  const { mutedUsers } = tables(db);
  return all(
    db
      .select({ id: mutedUsers.mutedUserId, timestamp: mutedUsers.dateMuted })
      .from(mutedUsers)
      .where(eq(mutedUsers.userId, userId))
      .orderBy(asc(mutedUsers.mutedUserId)),
  );
};

export const isMuted = async (db: Db, userId: number, mutedUserId: number) => {
  const { mutedUsers } = tables(db);
  return !!(await first(
    db
      .select()
      .from(mutedUsers)
      .where(and(eq(mutedUsers.userId, userId), eq(mutedUsers.mutedUserId, mutedUserId))),
  ));
};

export const insertMute = async (db: Db, userId: number, mutedUserId: number, dateMuted: number) => {
  const { mutedUsers } = tables(db);
  return run(db.insert(mutedUsers).values({ userId, mutedUserId, dateMuted }));
};

export const deleteMute = async (db: Db, userId: number, mutedUserId: number) => {
  const { mutedUsers } = tables(db);
  return run(db.delete(mutedUsers).where(and(eq(mutedUsers.userId, userId), eq(mutedUsers.mutedUserId, mutedUserId))));
};

/** Who muted this user (they get no notifications from them). */
export const listMuterIds = async (db: Db, mutedUserId: number): Promise<number[]> => {
  const { mutedUsers } = tables(db);
  return (await all(db.select({ id: mutedUsers.userId }).from(mutedUsers).where(eq(mutedUsers.mutedUserId, mutedUserId)))).map((r) => r.id);
};
