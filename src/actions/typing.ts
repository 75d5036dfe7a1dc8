import type { App } from "../context";
import type { RealmRow, UserRow } from "../db/schema";
import { emptyList, invalidRecipientUserId, missingConditional } from "../domain/errors";
import { userSetting } from "../domain/user-settings";
import { toUsers } from "../events/types";
import { subscriberIds } from "../store/subscriptions";
import { findUserById, listUsersByIds } from "../store/users";
import { accessMessage } from "./message-fetch";
import { findRecipient } from "../store/messages";
import { p, type Args } from "../domain/params";
import { accessChannelById } from "../access/channels";

export const typingParams = {
  type: p.enum(["direct", "private", "stream", "channel"] as const).optional("direct" as const),
  op: p.enum(["start", "stop"] as const),
  to: p.intList().optional(),
  stream_id: p.int().optional(),
  topic: p.str().optional(),
};

export type TypingArgs = Args<typeof typingParams>;

const receivesTyping = (u: UserRow) => u.isActive && userSetting(u, "receives_typing_notifications") === true;

/**
 * POST /typing. Direct typing reaches every participant (the sender's other clients too); channel
 * typing reaches the channel's subscribers but the sender. Only users who receive typing
 * notifications hear of it; nothing is stored.
 */
export async function sendTyping(app: App, sender: UserRow, a: TypingArgs) {
  const who = { user_id: sender.id, email: sender.email };
  if (a.type === "direct" || a.type === "private") {
    if (a.to === undefined) throw missingConditional("to");
    if (!a.to.length) throw emptyList();
    const people = new Map<number, UserRow>([[sender.id, sender]]);
    for (const id of a.to) {
      const u = await findUserById(app.db, id);
      if (!u || u.realmId !== sender.realmId) throw invalidRecipientUserId(id);
      people.set(u.id, u);
    }
    const recipients = [...people.values()].map((u) => ({ user_id: u.id, email: u.email }));
    const audience = [...people.values()].filter(receivesTyping).map((u) => u.id);
    await app.tx((tx) => tx.emit({ type: "typing", op: a.op, message_type: "direct", sender: who, recipients }, toUsers(audience)));
    return {};
  }
  if (a.stream_id === undefined) throw missingConditional("stream_id");
  if (a.topic === undefined) throw missingConditional("topic");
  const { channel } = await accessChannelById(app, sender, a.stream_id, { content: true });
  const audience = (await listUsersByIds(app.db, await subscriberIds(app.db, channel.id)))
    .filter((u) => u.id !== sender.id && receivesTyping(u))
    .map((u) => u.id);
  await app.tx((tx) => tx.emit({ type: "typing", op: a.op, message_type: "stream", sender: who, stream_id: a.stream_id, topic: a.topic }, toUsers(audience)));
  return {};
}

/**
 * POST /messages/{message_id}/typing: someone is editing a message they can read. The same people hear
 * of it as of typing in that conversation (`typing_edit_message` events).
 */
export async function sendEditTyping(app: App, realm: RealmRow, user: UserRow, messageId: number, op: "start" | "stop") {
  const { message, channel } = await accessMessage(app, realm, user, messageId);
  const base = { type: "typing_edit_message", op, sender_id: user.id, message_id: message.id };
  if (channel) {
    const audience = (await listUsersByIds(app.db, await subscriberIds(app.db, channel.id))).filter((u) => u.id !== user.id && receivesTyping(u));
    const recipient = { type: "channel", channel_id: channel.id, topic: message.topic };
    await app.tx((tx) => tx.emit({ ...base, recipient }, toUsers(audience.map((u) => u.id))));
    return {};
  }
  const ids = (await findRecipient(app.db, message.recipientId))!.dmKey!.split(",").map(Number);
  const audience = (await listUsersByIds(app.db, ids)).filter(receivesTyping);
  await app.tx((tx) => tx.emit({ ...base, recipient: { type: "direct", user_ids: ids } }, toUsers(audience.map((u) => u.id))));
  return {};
}
