// POST /messages/{message_id}/report: the notification bot posts the report, with the reported message
// behind a spoiler, in the organization's moderation request channel.
import type { App } from "../context";
import type { RealmRow, UserRow } from "../db/schema";
import { explanationRequired, moderationRequestChannelMustBeSpecified } from "../domain/errors";
import { globalTime, silentMention, truncated, unusedFence } from "../domain/messages";
import { realmSetting } from "../domain/realm-settings";
import { messageNarrowUrl } from "../render/urls";
import { findChannel } from "../store/channels";
import { findRecipient } from "../store/messages";
import { listUsersByIds } from "../store/users";
import { accessMessage } from "./message-fetch";
import { sendNotificationTx, topicsPolicyOf } from "./messages";
import { p, type Args } from "../domain/params";

export const REPORT_REASONS = {
  spam: "Spam",
  harassment: "Harassment",
  inappropriate: "Inappropriate content",
  norms: "Violates community norms",
  other: "Other reason",
} as const;
export type ReportType = keyof typeof REPORT_REASONS;
export const MAX_REPORT_DESCRIPTION = 1000;

export const reportParams = {
  report_type: p.enum(Object.keys(REPORT_REASONS) as ReportType[]),
  description: p.str({ max: MAX_REPORT_DESCRIPTION }).optional(""),
};

export async function reportMessage(app: App, realm: RealmRow, reporter: UserRow, id: number, a: Args<typeof reportParams>) {
  if (a.report_type === "other" && a.description === "") throw explanationRequired();
  const channelId = Number(realmSetting(realm, "moderation_request_channel_id"));
  const moderation = channelId > 0 ? await findChannel(app.db, channelId) : undefined;
  if (!moderation || moderation.realmId !== realm.id || moderation.isArchived) throw moderationRequestChannelMustBeSpecified();
  const { message, channel } = await accessMessage(app, realm, reporter, id);
  const [sender] = await listUsersByIds(app.db, [message.senderId]);
  const when = globalTime(message.dateSent);
  let header: string;
  let original: string;
  if (channel) {
    header = `${silentMention(reporter)} reported a message sent by ${silentMention(sender!)} at ${when}.`;
    original = `Original message at #**${channel.name}>${message.topic}@${message.id}**`;
  } else {
    const ids = (await findRecipient(app.db, message.recipientId))!.dmKey!.split(",").map(Number);
    const others = await listUsersByIds(
      app.db,
      ids.filter((u) => u !== sender!.id),
    );
    const to = others.length ? others.map(silentMention).join(", ") : silentMention(sender!);
    header = `${silentMention(reporter)} reported a message sent by ${silentMention(sender!)} to ${to} at ${when}.`;
    original = `[Original message](${messageNarrowUrl(message.id, { participantIds: ids })})`;
  }
  const room = app.config.limits.maxMessageLength - MAX_REPORT_DESCRIPTION - 500;
  const quoted = truncated(message.content, room);
  const fence = unusedFence(quoted);
  const content = `${header}\n\`\`\`quote\n**${REPORT_REASONS[a.report_type]}**. ${a.description}\n\`\`\`\n\n${fence} spoiler ${original}\n${quoted}\n${fence}\n`;
  const topic = topicsPolicyOf(realm, moderation) === "empty_topic_only" ? "" : `${sender!.fullName} moderation`;
  await app.tx(async (tx) => await sendNotificationTx(app, tx, realm, { channel: moderation, topic }, content), { keepsLookups: true });
  return {};
}
