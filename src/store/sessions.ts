import { and, eq, inArray, lte, ne, sql } from "drizzle-orm";
import type { Db } from "../db/client";
import { preparedPerDb } from "../db/prepared";
import { type sessions, type SessionRow } from "../db/schema";
import { tables } from "../db/engine";
import { first, run } from "../db/query";

const byHash = preparedPerDb((db) => {
  const { sessions } = tables(db);
  return db
    .select()
    .from(sessions)
    .where(eq(sessions.tokenHash, sql.placeholder("hash")));
});

/** The authentication lookup of every /json request. */
export const findSessionByHash = async (db: Db, hash: string): Promise<SessionRow | undefined> => byHash(db).get({ hash });

export const insertSession = async (db: Db, s: typeof sessions.$inferInsert): Promise<SessionRow> => {
  const { sessions } = tables(db);
  return first(db.insert(sessions).values(s).returning());
};

export const deleteSession = async (db: Db, id: number) => {
  const { sessions } = tables(db);
  return run(db.delete(sessions).where(eq(sessions.id, id)));
};

/** A user's sessions, but for `keep` (the one that changed the password stays signed in). */
export const deleteUserSessions = async (db: Db, userIds: number[], keep: number | null = null) => {
  const { sessions } = tables(db);
  return run(db.delete(sessions).where(keep === null ? inArray(sessions.userId, userIds) : and(inArray(sessions.userId, userIds), ne(sessions.id, keep))));
};

export const deleteRealmSessions = async (db: Db, realmId: number) => {
  const { sessions, users } = tables(db);
  return run(db.delete(sessions).where(inArray(sessions.userId, db.select({ id: users.id }).from(users).where(eq(users.realmId, realmId)))));
};

export const deleteExpiredSessions = async (db: Db, now: number) => {
  const { sessions } = tables(db);
  return run(db.delete(sessions).where(lte(sessions.expiresAt, now)));
};
