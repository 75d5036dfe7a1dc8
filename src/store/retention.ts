import type { Db } from "../db/client";
import type { MessageRow } from "../db/schema";
import { raw } from "../db/raw";
import { findMessage } from "./messages";
import { mapInOrder } from "../lib/in-order";

/** The direct-message conversations of a realm (their recipient ids). */
export const dmRecipientIds = async (db: Db, realmId: number): Promise<number[]> =>
  (await raw(db).all<{ id: number }>("SELECT id FROM recipients WHERE realm_id = ? AND dm_key IS NOT NULL", realmId)).map((r) => r.id);

/** Up to `limit` messages of a conversation sent before `cutoff`, oldest first. */
export async function messagesSentBefore(db: Db, recipientId: number, cutoff: number, limit: number): Promise<MessageRow[]> {
  const ids = (
    await raw(db).all<{ id: number }>("SELECT id FROM messages WHERE recipient_id = ? AND date_sent < ? ORDER BY id LIMIT ?", recipientId, cutoff, limit)
  ).map((r) => r.id);
  return await mapInOrder(ids, async (id) => (await findMessage(db, id))!);
}
