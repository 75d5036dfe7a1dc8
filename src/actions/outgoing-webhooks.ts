// Outgoing webhooks: a person mentions an outgoing-webhook bot in a channel it can see, or sends it a
// direct message; the send's transaction writes an outbox row, runtime/outgoing-webhooks.ts calls the
// bot's service off the request path, and outgoing-webhook-replies.ts posts what came of it.
import type { App } from "../context";
import type { ChannelRow, UserRow } from "../db/schema";
import type { Tx } from "../db/tx";
import { BOT_TYPE } from "../domain/bots";
import type { Trigger } from "../domain/outgoing-webhooks";
import { insertOutgoingWebhookCall } from "../store/outgoing-webhooks";
import { listUsersByIds } from "../store/users";

const isOutgoingBot = (u: UserRow) => u.isBot && u.isActive && u.botType === BOT_TYPE.outgoingWebhook;

export interface SentForWebhooks {
  channel: ChannelRow | null;
  dmUsers: UserRow[] | null;
  /** Who receives the message: a private channel's bot must be among them to be called. */
  recipients: readonly number[];
  mentionedUserIds: readonly number[];
  /** The Markdown as sent. */
  content: string;
}

/**
 * In the send's transaction: one outbox row per outgoing-webhook bot the message calls on (Zulip's
 * triggers: "mention" in a channel, "direct_message"). Messages from bots call none, so two bots
 * cannot answer each other forever. `message` is the message event's object (rendered content).
 */
export async function queueOutgoingWebhooksTx(app: App, tx: Tx, sender: UserRow, s: SentForWebhooks, message: Record<string, unknown>) {
  if (sender.isBot) return;
  let bots: UserRow[];
  let trigger: Trigger;
  if (s.channel) {
    if (!s.mentionedUserIds.length) return;
    const channel = s.channel;
    bots = (await listUsersByIds(tx.db, s.mentionedUserIds)).filter(
      (u) => isOutgoingBot(u) && u.realmId === sender.realmId && (!channel.inviteOnly || s.recipients.includes(u.id)),
    );
    trigger = "mention";
  } else {
    bots = s.dmUsers!.filter((u) => u.id !== sender.id && isOutgoingBot(u));
    trigger = "direct_message";
  }
  if (!bots.length) return;
  const payload = { ...message, content: s.content, rendered_content: message.content };
  const now = Date.now();
  for (const bot of bots)
    await insertOutgoingWebhookCall(tx.db, { botId: bot.id, messageId: Number(message.id), trigger, message: payload, nextAttemptAt: now });
  tx.afterCommit(() => app.listeners.outgoingWebhookQueued?.());
}
