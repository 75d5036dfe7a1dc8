import type { Db } from "../db/client";

/**
 * Users a guest shares something with: subscribers of the channels they are subscribed to, and the
 * people in their direct-message conversations (themselves included).
 */
export async function usersSharingWith(db: Db, userId: number): Promise<Set<number>> {
  const sqlite = (db as any).$client as import("bun:sqlite").Database;
  const rows = sqlite
    .query<{ id: number }, [number, number]>(
      `SELECT s2.user_id AS id FROM subscriptions s1 JOIN subscriptions s2 ON s2.channel_id = s1.channel_id AND s2.active = 1
        WHERE s1.user_id = ?1 AND s1.active = 1
       UNION
       SELECT r.dm_key AS id FROM recipients r WHERE r.dm_key IS NOT NULL AND r.id IN (
         SELECT DISTINCT m.recipient_id FROM user_messages um JOIN messages m ON m.id = um.message_id WHERE um.user_id = ?2)`,
    )
    .all(userId, userId);
  const ids = new Set<number>([userId]);
  for (const r of rows) for (const part of String(r.id).split(",")) ids.add(Number(part));
  return ids;
}
