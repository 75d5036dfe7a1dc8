// POST /submessage: the widget protocol (Zulip's poll and todo widgets) adds state to a message.
import type { App } from "../context";
import type { RealmRow, UserRow } from "../db/schema";
import { cannotAttachSubmessageMessage } from "../domain/errors";
import { checkWidgetData, widgetTypeOf } from "../domain/submessages";
import { toUsers } from "../events/types";
import { messageRecipients } from "../store/message-flags";
import * as store from "../store/submessages";
import { catchUpChannels } from "./catch-up";
import { accessMessage } from "./message-fetch";
import { p, type Args } from "../domain/params";

export const submessageParams = { message_id: p.int(), msg_type: p.str(), content: p.str() };

export async function addSubmessage(app: App, realm: RealmRow, user: UserRow, a: Args<typeof submessageParams>) {
  const { message, channel } = await accessMessage(app, realm, user, a.message_id);
  const isAuthor = message.senderId === user.id;
  // Everyone who can read the message may take part, but its sender attaches the first submessage.
  if (!isAuthor && !(await store.hasSubmessageFrom(app.db, message.id, message.senderId))) throw cannotAttachSubmessageMessage();
  checkWidgetData(widgetTypeOf((await store.firstWidgetSubmessage(app.db, message.id))?.content), a.content, isAuthor);
  if (channel) await catchUpChannels(app, [channel.id]); // the event's audience, read outside the writer
  await app.tx(
    async (tx) => {
      const row = await store.insertSubmessage(tx.db, { messageId: message.id, senderId: user.id, msgType: a.msg_type, content: a.content });
      const audience = (await messageRecipients(tx.db, message.id)).map((r) => r.userId);
      tx.emit(
        { type: "submessage", msg_type: row.msgType, content: row.content, message_id: row.messageId, sender_id: row.senderId, submessage_id: row.id },
        toUsers(audience, channel && !channel.inviteOnly ? { publicStreamOf: realm.id } : {}),
      );
    },
    { keepsLookups: true },
  );
  return {};
}
