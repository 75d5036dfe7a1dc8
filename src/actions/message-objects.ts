// Message objects as the API shows them: the same shape for GET /messages, message events and every
// other place a message is returned (domain/messages.ts toApiMessage, given what it needs to look up).
import type { App } from "../context";
import type { MessageRow, RealmRow, UserRow } from "../db/schema";
import { toApiMessage, type MessageParts, type MessageViewOptions } from "../domain/messages";
import { realmSetting } from "../domain/realm-settings";
import { avatarUrl } from "../domain/users";
import { topicKey } from "../domain/workspaces";
import { topicLinks } from "../render";
import * as store from "../store/messages";
import { workspaceUuidsByTopic } from "../store/workspaces";
import { realmLinkifiers } from "./render";

/** Zulip's embedded bot type: the agent's bot, whose messages carry is_agent_message. */
export const EMBEDDED_BOT = 4;

/** Message events carry HTML, the empty topic as is and every edit; events/present.ts shapes them per client. */
export const EVENT_VIEW = (realm: RealmRow): MessageViewOptions => ({
  applyMarkdown: true,
  clientGravatar: false,
  allowEmptyTopicName: true,
  editHistoryPolicy: String(realmSetting(realm, "message_edit_history_visibility_policy")),
});

export const senderOf = (app: App, u: UserRow) => ({
  id: u.id,
  email: u.email,
  fullName: u.fullName,
  avatarUrl: avatarUrl(u, app.config.externalUrl),
  gravatar: u.avatarSource === "G",
});

/** Message objects for rows the viewer may see, with four lookups for the whole page. */
export async function messageObjects(
  app: App,
  realm: RealmRow,
  rows: MessageRow[],
  v: MessageViewOptions,
  flagsOf: (id: number) => number | undefined,
): Promise<Record<string, unknown>[]> {
  const l = await store.messageLookups(app.db, rows);
  const linkifiers = await realmLinkifiers(app, realm);
  const workspaces = await app.reads.get(`workspaces:${realm.id}`, async () => await workspaceUuidsByTopic(app.db, realm.id));
  return rows.map((m) => {
    const sender = l.users.get(m.senderId)!;
    const rec = l.recipients.get(m.recipientId)!;
    const parts: MessageParts = {
      sender: senderOf(app, sender),
      recipient:
        rec.channelId !== null
          ? { type: "stream", channelId: rec.channelId, name: l.channelNames.get(rec.channelId) ?? "" }
          : {
              type: "private",
              users: rec
                .dmKey!.split(",")
                .map((id) => l.users.get(Number(id))!)
                .map((u) => ({ id: u.id, email: u.email, full_name: u.fullName })),
            },
      realmStr: realm.stringId,
      reactions: l.reactions.get(m.id) ?? [],
      submessages: l.submessages.get(m.id) ?? [],
      topicLinks: rec.channelId !== null ? topicLinks(m.topic, linkifiers) : [],
      isAgentMessage: sender.isBot && sender.botType === EMBEDDED_BOT,
      workspaceUuid: rec.channelId !== null ? workspaces.get(topicKey(rec.channelId, m.topic)) : undefined,
    };
    return toApiMessage(m, parts, v, { flags: flagsOf(m.id) });
  });
}

export const viewOptions = (
  realm: RealmRow,
  a: { apply_markdown: boolean; client_gravatar: boolean; allow_empty_topic_name: boolean },
): MessageViewOptions => ({
  applyMarkdown: a.apply_markdown,
  clientGravatar: a.client_gravatar,
  allowEmptyTopicName: a.allow_empty_topic_name,
  editHistoryPolicy: String(realmSetting(realm, "message_edit_history_visibility_policy")),
});
