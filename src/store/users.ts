import { and, asc, eq, sql } from "drizzle-orm";
import { sqliteOf, type Db } from "../db/client";
import { idsValue, inIds, inIdsPlaceholder } from "../db/in-ids";
import { preparedPerDb } from "../db/prepared";
import { users, type UserRow } from "../db/schema";

const byEmail = preparedPerDb((db) =>
  db
    .select()
    .from(users)
    .where(and(eq(users.realmId, sql.placeholder("realmId")), sql`lower(${users.email}) = lower(${sql.placeholder("email")})`))
    .prepare(),
);

/** The authentication lookup, on every request. */
export const findUserByEmail = async (db: Db, realmId: number, email: string): Promise<UserRow | undefined> => byEmail(db).get({ realmId, email });

/** An incoming webhook's `api_key` URL parameter names the user by itself (the column is unique). */
export const findUserByApiKey = async (db: Db, realmId: number, apiKey: string): Promise<UserRow | undefined> =>
  db
    .select()
    .from(users)
    .where(and(eq(users.realmId, realmId), eq(users.apiKey, apiKey)))
    .get();

export const findUserById = async (db: Db, id: number): Promise<UserRow | undefined> => db.select().from(users).where(eq(users.id, id)).get();

export const listUsers = async (db: Db, realmId: number): Promise<UserRow[]> =>
  db.select().from(users).where(eq(users.realmId, realmId)).orderBy(asc(users.id)).all();

export const insertUser = async (db: Db, u: typeof users.$inferInsert): Promise<UserRow> => db.insert(users).values(u).returning().get();

export const updateUser = async (db: Db, id: number, patch: Partial<typeof users.$inferInsert>): Promise<UserRow> =>
  db.update(users).set(patch).where(eq(users.id, id)).returning().get()!;

/** Ids of deactivated users of a realm (few, usually): left out of group members and setting values. */
export const listInactiveUserIds = async (db: Db, realmId: number): Promise<Set<number>> =>
  new Set(
    db
      .select({ id: users.id })
      .from(users)
      .where(and(eq(users.realmId, realmId), eq(users.isActive, false)))
      .all()
      .map((r) => r.id),
  );

/** Which of these ids are active users of the realm (one query, however many ids). */
export async function activeUserIdsAmong(db: Db, realmId: number, ids: readonly number[]): Promise<Set<number>> {
  if (!ids.length) return new Set();
  const sqlite = (db as unknown as { $client: import("bun:sqlite").Database }).$client;
  return new Set(
    sqlite
      .query<{ id: number }, [string, number]>("SELECT id FROM users WHERE id IN (SELECT value FROM json_each(?1)) AND realm_id = ?2 AND is_active = 1")
      .all(JSON.stringify(ids), realmId)
      .map((r) => r.id),
  );
}

export const countActiveUsers = async (db: Db, realmId: number): Promise<number> =>
  db
    .select({ n: sql<number>`count(*)` })
    .from(users)
    .where(and(eq(users.realmId, realmId), eq(users.isActive, true)))
    .get()!.n;

export const countActiveHumanOwners = async (db: Db, realmId: number): Promise<number> =>
  db
    .select({ n: sql<number>`count(*)` })
    .from(users)
    .where(and(eq(users.realmId, realmId), eq(users.isActive, true), eq(users.isBot, false), eq(users.role, 100)))
    .get()!.n;

/** Bots a user owns, active or not. */
export const listOwnedBots = async (db: Db, ownerId: number): Promise<UserRow[]> =>
  db
    .select()
    .from(users)
    .where(and(eq(users.botOwnerId, ownerId), eq(users.isBot, true)))
    .orderBy(asc(users.id))
    .all();

/** Active administrators and owners of a realm (who see every bot). */
export const listAdminIds = async (db: Db, realmId: number): Promise<number[]> =>
  db
    .select({ id: users.id })
    .from(users)
    .where(and(eq(users.realmId, realmId), eq(users.isActive, true), sql`${users.role} <= 200`))
    .all()
    .map((r) => r.id);

/** These users (any realm), in one query. */
const usersByIds = preparedPerDb((db) => db.select().from(users).where(inIdsPlaceholder(users.id)).prepare());
export const listUsersByIds = async (db: Db, ids: readonly number[]): Promise<UserRow[]> => (ids.length ? usersByIds(db).all({ ids: idsValue(ids) }) : []);

/** Active users of a realm seen since `since` (UNIX seconds) through the API or presence, and its bots. */
export const recentlyActiveUserIds = async (db: Db, realmId: number, since: number): Promise<number[]> =>
  sqliteOf(db)
    .query<{ id: number }, [number, number]>(
      `SELECT u.id FROM users u LEFT JOIN presences p ON p.user_id = u.id WHERE u.realm_id = ?1 AND u.is_active = 1
       AND (u.is_bot = 1 OR u.last_active >= ?2 OR p.last_connected_time >= ?2)`,
    )
    .all(realmId, since)
    .map((r) => r.id);
