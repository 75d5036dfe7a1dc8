import { and, eq, gt, sql } from "drizzle-orm";
import type { Db } from "../db/client";
import { type PresenceRow } from "../db/schema";
import { tables } from "../db/engine";
import { first, all, run } from "../db/query";

export const findPresence = async (db: Db, userId: number): Promise<PresenceRow | undefined> => {
  const { presences } = tables(db);
  return first(db.select().from(presences).where(eq(presences.userId, userId)));
};

/** Presence rows of a realm's active users, connected since `since`, changed after `afterUpdateId`. */
export const listPresences = async (db: Db, realmId: number, since: number, afterUpdateId = -1) => {
  const { presences, users } = tables(db);
  return all(
    db
      .select({ p: presences, email: users.email })
      .from(presences)
      .innerJoin(users, eq(users.id, presences.userId))
      .where(and(eq(presences.realmId, realmId), eq(users.isActive, true), gt(presences.lastConnectedTime, since), gt(presences.lastUpdateId, afterUpdateId))),
  );
};

export const maxPresenceUpdateId = async (db: Db, realmId: number): Promise<number> => {
  const { presences } = tables(db);
  return (await first(
    db
      .select({ m: sql<number>`coalesce(max(${presences.lastUpdateId}), -1)`.mapWith(Number) })
      .from(presences)
      .where(eq(presences.realmId, realmId)),
  ))!.m;
};

export const upsertPresence = async (db: Db, row: PresenceRow) => {
  const { presences } = tables(db);
  return run(
    db
      .insert(presences)
      .values(row)
      .onConflictDoUpdate({
        target: presences.userId,
        set: { lastConnectedTime: row.lastConnectedTime, lastActiveTime: row.lastActiveTime, lastUpdateId: row.lastUpdateId },
      }),
  );
};
