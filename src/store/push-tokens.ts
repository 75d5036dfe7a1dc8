import { and, eq } from "drizzle-orm";
import type { Db } from "../db/client";
import { tables } from "../db/engine";
import { first, all, run } from "../db/query";

type Kind = "apns" | "fcm";

export const savePushToken = async (db: Db, userId: number, kind: Kind, token: string, iosAppId: string | null, now: number) => {
  const { pushTokens } = tables(db);
  return run(
    db
      .insert(pushTokens)
      .values({ userId, kind, token, iosAppId, lastUpdated: now })
      .onConflictDoUpdate({ target: [pushTokens.userId, pushTokens.kind, pushTokens.token], set: { iosAppId, lastUpdated: now } }),
  );
};

/** Removes the user's token; false when there was none. */
export const deletePushToken = async (db: Db, userId: number, kind: Kind, token: string): Promise<boolean> => {
  const { pushTokens } = tables(db);
  return (
    (
      await all(
        db
          .delete(pushTokens)
          .where(and(eq(pushTokens.userId, userId), eq(pushTokens.kind, kind), eq(pushTokens.token, token)))
          .returning({ id: pushTokens.id }),
      )
    ).length > 0
  );
};

export const hasPushToken = async (db: Db, userId: number, token: string): Promise<boolean> => {
  const { pushTokens } = tables(db);
  return !!(await first(
    db
      .select({ id: pushTokens.id })
      .from(pushTokens)
      .where(and(eq(pushTokens.userId, userId), eq(pushTokens.token, token))),
  ));
};
