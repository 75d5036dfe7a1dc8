import { and, eq, inArray, lte, ne, sql } from "drizzle-orm";
import type { Db } from "../db/client";
import { preparedPerDb } from "../db/prepared";
import { sessions, users, type SessionRow } from "../db/schema";

const byHash = preparedPerDb((db) =>
  db
    .select()
    .from(sessions)
    .where(eq(sessions.tokenHash, sql.placeholder("hash")))
    .prepare(),
);

/** The authentication lookup of every /json request. */
export const findSessionByHash = async (db: Db, hash: string): Promise<SessionRow | undefined> => byHash(db).get({ hash });

export const insertSession = async (db: Db, s: typeof sessions.$inferInsert): Promise<SessionRow> => db.insert(sessions).values(s).returning().get();

export const deleteSession = async (db: Db, id: number) => db.delete(sessions).where(eq(sessions.id, id)).run();

/** A user's sessions, but for `keep` (the one that changed the password stays signed in). */
export const deleteUserSessions = async (db: Db, userIds: number[], keep: number | null = null) =>
  db
    .delete(sessions)
    .where(keep === null ? inArray(sessions.userId, userIds) : and(inArray(sessions.userId, userIds), ne(sessions.id, keep)))
    .run();

export const deleteRealmSessions = async (db: Db, realmId: number) =>
  db
    .delete(sessions)
    .where(inArray(sessions.userId, db.select({ id: users.id }).from(users).where(eq(users.realmId, realmId))))
    .run();

export const deleteExpiredSessions = async (db: Db, now: number) => db.delete(sessions).where(lte(sessions.expiresAt, now)).run();
