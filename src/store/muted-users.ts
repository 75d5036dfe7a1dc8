import { and, asc, eq } from "drizzle-orm";
import type { Db } from "../db/client";
import { mutedUsers } from "../db/schema";

export const listMutedUsers = async (db: Db, userId: number) =>
  db
    .select({ id: mutedUsers.mutedUserId, timestamp: mutedUsers.dateMuted })
    .from(mutedUsers)
    .where(eq(mutedUsers.userId, userId))
    .orderBy(asc(mutedUsers.mutedUserId))
    .all();

export const isMuted = async (db: Db, userId: number, mutedUserId: number) =>
  !!db
    .select()
    .from(mutedUsers)
    .where(and(eq(mutedUsers.userId, userId), eq(mutedUsers.mutedUserId, mutedUserId)))
    .get();

export const insertMute = async (db: Db, userId: number, mutedUserId: number, dateMuted: number) =>
  db.insert(mutedUsers).values({ userId, mutedUserId, dateMuted }).run();

export const deleteMute = async (db: Db, userId: number, mutedUserId: number) =>
  db
    .delete(mutedUsers)
    .where(and(eq(mutedUsers.userId, userId), eq(mutedUsers.mutedUserId, mutedUserId)))
    .run();

/** Who muted this user (they get no notifications from them). */
export const listMuterIds = async (db: Db, mutedUserId: number): Promise<number[]> =>
  db
    .select({ id: mutedUsers.userId })
    .from(mutedUsers)
    .where(eq(mutedUsers.mutedUserId, mutedUserId))
    .all()
    .map((r) => r.id);
