import type { Db } from "../db/client";
import { raw } from "../db/raw";

/**
 * Users a guest shares something with: subscribers of the channels they are subscribed to, and the
 * people in their direct-message conversations (themselves included).
 */
export async function usersSharingWith(db: Db, userId: number): Promise<Set<number>> {
  // One column of text: a user id, or a conversation's comma-separated members.
  const rows = await raw(db).all<{ id: string }>(
    `SELECT CAST(s2.user_id AS text) AS id FROM subscriptions s1 JOIN subscriptions s2 ON s2.channel_id = s1.channel_id AND s2.active = true
        WHERE s1.user_id = ?1 AND s1.active = true
       UNION
       SELECT r.dm_key AS id FROM recipients r WHERE r.dm_key IS NOT NULL AND r.id IN (
         SELECT DISTINCT m.recipient_id FROM user_messages um JOIN messages m ON m.id = um.message_id WHERE um.user_id = ?2)`,
    userId,
    userId,
  );
  const ids = new Set<number>([userId]);
  for (const r of rows) for (const part of r.id.split(",")) ids.add(Number(part));
  return ids;
}
