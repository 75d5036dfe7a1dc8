import { and, asc, eq, sql } from "drizzle-orm";
import type { Db } from "../db/client";
import { idsValue, inIds, inIdsPlaceholder, idsTable } from "../db/in-ids";
import { preparedPerDb } from "../db/prepared";
import { type users, type UserRow } from "../db/schema";
import { tables } from "../db/engine";
import { first, all } from "../db/query";
import { raw } from "../db/raw";

const byEmail = preparedPerDb((db) => {
  const { users } = tables(db);
  return db
    .select()
    .from(users)
    .where(and(eq(users.realmId, sql.placeholder("realmId")), sql`lower(${users.email}) = lower(${sql.placeholder("email")})`));
});

/** The authentication lookup, on every request. */
export const findUserByEmail = async (db: Db, realmId: number, email: string): Promise<UserRow | undefined> => byEmail(db).get({ realmId, email });

/** An incoming webhook's `api_key` URL parameter names the user by itself (the column is unique). */
export const findUserByApiKey = async (db: Db, realmId: number, apiKey: string): Promise<UserRow | undefined> => {
  const { users } = tables(db);
  return first(
    db
      .select()
      .from(users)
      .where(and(eq(users.realmId, realmId), eq(users.apiKey, apiKey))),
  );
};

export const findUserById = async (db: Db, id: number): Promise<UserRow | undefined> => {
  const { users } = tables(db);
  return first(db.select().from(users).where(eq(users.id, id)));
};

export const listUsers = async (db: Db, realmId: number): Promise<UserRow[]> => {
  const { users } = tables(db);
  return all(db.select().from(users).where(eq(users.realmId, realmId)).orderBy(asc(users.id)));
};

export const insertUser = async (db: Db, u: typeof users.$inferInsert): Promise<UserRow> => {
  const { users } = tables(db);
  return first(db.insert(users).values(u).returning());
};

export const updateUser = async (db: Db, id: number, patch: Partial<typeof users.$inferInsert>): Promise<UserRow> => {
  const { users } = tables(db);
  return (await first(db.update(users).set(patch).where(eq(users.id, id)).returning()))!;
};

/** Ids of deactivated users of a realm (few, usually): left out of group members and setting values. */
export const listInactiveUserIds = async (db: Db, realmId: number): Promise<Set<number>> => {
  const { users } = tables(db);
  return new Set(
    (
      await all(
        db
          .select({ id: users.id })
          .from(users)
          .where(and(eq(users.realmId, realmId), eq(users.isActive, false))),
      )
    ).map((r) => r.id),
  );
};

/** Which of these ids are active users of the realm (one query, however many ids). */
export async function activeUserIdsAmong(db: Db, realmId: number, ids: readonly number[]): Promise<Set<number>> {
  if (!ids.length) return new Set();
  return new Set(
    (
      await raw(db).all<{ id: number }>(
        `SELECT id FROM users WHERE id IN (SELECT value FROM ${idsTable(db, "?1")}) AND realm_id = ?2 AND is_active = true`,
        idsValue(db, ids),
        realmId,
      )
    ).map((r) => r.id),
  );
}

export const countActiveUsers = async (db: Db, realmId: number): Promise<number> => {
  const { users } = tables(db);
  return (await first(
    db
      .select({ n: sql<number>`count(*)`.mapWith(Number) })
      .from(users)
      .where(and(eq(users.realmId, realmId), eq(users.isActive, true))),
  ))!.n;
};

export const countActiveHumanOwners = async (db: Db, realmId: number): Promise<number> => {
  const { users } = tables(db);
  return (await first(
    db
      .select({ n: sql<number>`count(*)`.mapWith(Number) })
      .from(users)
      .where(and(eq(users.realmId, realmId), eq(users.isActive, true), eq(users.isBot, false), eq(users.role, 100))),
  ))!.n;
};

/** Bots a user owns, active or not. */
export const listOwnedBots = async (db: Db, ownerId: number): Promise<UserRow[]> => {
  const { users } = tables(db);
  return all(
    db
      .select()
      .from(users)
      .where(and(eq(users.botOwnerId, ownerId), eq(users.isBot, true)))
      .orderBy(asc(users.id)),
  );
};

/** Active administrators and owners of a realm (who see every bot). */
export const listAdminIds = async (db: Db, realmId: number): Promise<number[]> => {
  const { users } = tables(db);
  return (
    await all(
      db
        .select({ id: users.id })
        .from(users)
        .where(and(eq(users.realmId, realmId), eq(users.isActive, true), sql`${users.role} <= 200`)),
    )
  ).map((r) => r.id);
};

/** These users (any realm), in one query. */
const usersByIds = preparedPerDb((db) => {
  const { users } = tables(db);
  return db.select().from(users).where(inIdsPlaceholder(db, users.id));
});
export const listUsersByIds = async (db: Db, ids: readonly number[]): Promise<UserRow[]> => (ids.length ? usersByIds(db).all({ ids: idsValue(db, ids) }) : []);

/** Active users of a realm seen since `since` (UNIX seconds) through the API or presence, and its bots. */
export const recentlyActiveUserIds = async (db: Db, realmId: number, since: number): Promise<number[]> =>
  (
    await raw(db).all<{ id: number }>(
      `SELECT u.id FROM users u LEFT JOIN presences p ON p.user_id = u.id WHERE u.realm_id = ?1 AND u.is_active = true
       AND (u.is_bot = true OR u.last_active >= ?2 OR p.last_connected_time >= ?2)`,
      realmId,
      since,
    )
  ).map((r) => r.id);
