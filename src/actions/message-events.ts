import type { App } from "../context";
import type { MessagePayload } from "../events/message-cache";
import { findMessage } from "../store/messages";
import { findRealmById } from "../store/realms";
import { findUserById } from "../store/users";
import { EVENT_VIEW, messageObjects } from "./message-objects";

/** Rebuilds a message event's payload from the database, as sendMessage emitted it (current state). */
export async function messageEventPayload(app: App, id: number): Promise<MessagePayload | null> {
  const row = await findMessage(app.db, id);
  if (!row) return null;
  const realm = (await findRealmById(app.db, row.realmId))!;
  const [message] = await messageObjects(app, realm, [row], EVENT_VIEW(realm), () => undefined);
  const sender = (await findUserById(app.db, row.senderId))!;
  return { message: message as MessagePayload["message"], raw_content: row.content, avatar_gravatar: sender.avatarSource === "G" };
}
