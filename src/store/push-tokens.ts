import { and, eq } from "drizzle-orm";
import type { Db } from "../db/client";
import { pushTokens } from "../db/schema";

type Kind = "apns" | "fcm";

export const savePushToken = async (db: Db, userId: number, kind: Kind, token: string, iosAppId: string | null, now: number) =>
  db
    .insert(pushTokens)
    .values({ userId, kind, token, iosAppId, lastUpdated: now })
    .onConflictDoUpdate({ target: [pushTokens.userId, pushTokens.kind, pushTokens.token], set: { iosAppId, lastUpdated: now } })
    .run();

/** Removes the user's token; false when there was none. */
export const deletePushToken = async (db: Db, userId: number, kind: Kind, token: string): Promise<boolean> =>
  db
    .delete(pushTokens)
    .where(and(eq(pushTokens.userId, userId), eq(pushTokens.kind, kind), eq(pushTokens.token, token)))
    .returning({ id: pushTokens.id })
    .all().length > 0;

export const hasPushToken = async (db: Db, userId: number, token: string): Promise<boolean> =>
  !!db
    .select({ id: pushTokens.id })
    .from(pushTokens)
    .where(and(eq(pushTokens.userId, userId), eq(pushTokens.token, token)))
    .get();
