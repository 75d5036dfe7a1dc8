import { and, eq, gt, sql } from "drizzle-orm";
import type { Db } from "../db/client";
import { presences, users, type PresenceRow } from "../db/schema";

export const findPresence = async (db: Db, userId: number): Promise<PresenceRow | undefined> =>
  db.select().from(presences).where(eq(presences.userId, userId)).get();

/** Presence rows of a realm's active users, connected since `since`, changed after `afterUpdateId`. */
export const listPresences = async (db: Db, realmId: number, since: number, afterUpdateId = -1) =>
  db
    .select({ p: presences, email: users.email })
    .from(presences)
    .innerJoin(users, eq(users.id, presences.userId))
    .where(and(eq(presences.realmId, realmId), eq(users.isActive, true), gt(presences.lastConnectedTime, since), gt(presences.lastUpdateId, afterUpdateId)))
    .all();

export const maxPresenceUpdateId = async (db: Db, realmId: number): Promise<number> =>
  db
    .select({ m: sql<number>`coalesce(max(${presences.lastUpdateId}), -1)` })
    .from(presences)
    .where(eq(presences.realmId, realmId))
    .get()!.m;

export const upsertPresence = async (db: Db, row: PresenceRow) =>
  db
    .insert(presences)
    .values(row)
    .onConflictDoUpdate({
      target: presences.userId,
      set: { lastConnectedTime: row.lastConnectedTime, lastActiveTime: row.lastActiveTime, lastUpdateId: row.lastUpdateId },
    })
    .run();
