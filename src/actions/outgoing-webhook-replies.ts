// What came of an outgoing webhook call (runtime/outgoing-webhooks.ts makes them): the bot's reply or a
// failure posted where it was mentioned, a notice to its owner, or the call tried again later.
import type { App } from "../context";
import type { ChannelRow, OutgoingWebhookCallRow, UserRow } from "../db/schema";
import type { Tx } from "../db/tx";
import { failureReply, ownerNotice } from "../domain/outgoing-webhooks";
import { realmUrl } from "../domain/realms";
import { channelSlug, encodeHashComponent } from "../render/urls";
import { findChannel } from "../store/channels";
import { deleteOutgoingWebhookCall, rescheduleOutgoingWebhookCall } from "../store/outgoing-webhooks";
import { findRealmById } from "../store/realms";
import { findUserById, listUsersByIds } from "../store/users";
import { sendBotMessageTx } from "./messages";

/** What came of one call. */
export type CallOutcome =
  | { kind: "reply"; content: string | null }
  /** Failed for good: `reply` goes to the conversation, `notice` to the bot's owner. */
  | { kind: "fail"; reply: string; notice?: Omit<Parameters<typeof ownerNotice>[0], "botName" | "messageUrl"> }
  /** Failed for now (timeout, connection, 5xx): tried again later, up to outgoing_webhooks.max_attempts. */
  | { kind: "retry"; failure: string }
  /** The bot or its service is gone: the call is dropped. */
  | { kind: "drop" };

/** Records a call's outcome in one transaction: the reply or failure posted, the outbox row done or rescheduled. */
export async function finishOutgoingWebhookCall(app: App, row: OutgoingWebhookCallRow, outcome: CallOutcome) {
  const cfg = app.config.outgoingWebhooks;
  if (outcome.kind === "retry") {
    const attempts = row.attempts + 1;
    if (attempts < cfg.maxAttempts) {
      await app.tx(async (tx) => await rescheduleOutgoingWebhookCall(tx.db, row.id, attempts, Date.now() + cfg.retryDelayMs * 2 ** (attempts - 1)));
      return;
    }
    outcome = { kind: "fail", reply: failureReply("Bot is unavailable"), notice: { failure: outcome.failure } };
  }
  const bot = await findUserById(app.db, row.botId);
  const realm = bot && (await findRealmById(app.db, bot.realmId));
  await app.tx(async (tx) => {
    await deleteOutgoingWebhookCall(tx.db, row.id);
    if (!bot || !realm || outcome.kind === "drop") return;
    const m = row.message as Record<string, any>;
    const text = outcome.kind === "reply" ? outcome.content : outcome.reply;
    const to = await conversationOf(tx, m);
    if (text && to) await sendBotMessageTx(app, tx, realm, bot, to, text, "OutgoingWebhookResponse");
    if (outcome.kind === "fail" && outcome.notice && bot.botOwnerId !== null) {
      const owner = await findUserById(tx.db, bot.botOwnerId);
      if (owner?.isActive) {
        const content = ownerNotice({ botName: bot.fullName, messageUrl: messageUrl(realmUrl(app.config.externalUrl, realm.stringId), m), ...outcome.notice });
        await sendBotMessageTx(app, tx, realm, bot, { dmUsers: [bot, owner] }, content, "OutgoingWebhookResponse");
      }
    }
  });
}

/** Where the triggering message was, if it still can be answered there. */
async function conversationOf(tx: Tx, m: Record<string, any>): Promise<{ channel: ChannelRow; topic: string } | { dmUsers: UserRow[] } | null> {
  if (m.type === "stream") {
    const channel = await findChannel(tx.db, Number(m.stream_id));
    return channel && !channel.isArchived ? { channel, topic: String(m.subject ?? "") } : null;
  }
  const users = await listUsersByIds(
    tx.db,
    (m.display_recipient as { id: number }[]).map((u) => u.id),
  );
  return users.length ? { dmUsers: users } : null;
}

function messageUrl(base: string, m: Record<string, any>): string {
  const near = `/near/${m.id}`;
  if (m.type === "stream")
    return `${base}/#narrow/channel/${channelSlug(Number(m.stream_id), String(m.display_recipient))}/topic/${encodeHashComponent(String(m.subject ?? ""))}${near}`;
  return `${base}/#narrow/dm/${(m.display_recipient as { id: number }[]).map((u) => u.id).join(",")}${near}`;
}
