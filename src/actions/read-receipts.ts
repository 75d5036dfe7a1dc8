// GET /messages/{message_id}/read_receipts: who has read a message.
import type { App } from "../context";
import type { RealmRow, UserRow } from "../db/schema";
import { readReceiptsDisabled } from "../domain/errors";
import { realmSetting } from "../domain/realm-settings";
import { userSetting } from "../domain/user-settings";
import { readers } from "../store/message-flags";
import { listMutedUsers, listMuterIds } from "../store/muted-users";
import { accessMessage } from "./message-fetch";

/**
 * The users who read it, as Zulip answers: not its sender, only active users who share read receipts,
 * and neither users the caller muted nor users who muted the caller.
 */
export async function readReceipts(app: App, realm: RealmRow, user: UserRow, id: number) {
  if (!realmSetting(realm, "enable_read_receipts")) throw readReceiptsDisabled();
  const { message } = await accessMessage(app, realm, user, id);
  const hidden = new Set([...(await listMutedUsers(app.db, user.id)).map((m) => m.id), ...(await listMuterIds(app.db, user.id))]);
  const shown = (await readers(app.db, message.id)).filter(
    (u) => u.id !== message.senderId && !hidden.has(u.id) && userSetting(u, "send_read_receipts") !== false,
  );
  return { user_ids: shown.map((u) => u.id) };
}
