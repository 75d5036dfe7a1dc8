// Scheduled messages and reminders as Zulip's API shows them, and the notification bot's texts for them.
import type { ScheduledMessageRow } from "../db/schema";
import { globalTime, silentMention, truncated, unusedFence } from "./messages";

/** Zulip's ScheduledMessage object. */
export function toApiScheduledMessage(r: ScheduledMessageRow) {
  return {
    scheduled_message_id: r.id,
    type: r.type,
    to: r.type === "stream" ? r.to[0]! : r.to,
    ...(r.type === "stream" ? { topic: r.topic } : {}),
    content: r.content,
    rendered_content: r.renderedContent,
    scheduled_delivery_timestamp: r.scheduledAt,
    failed: r.failed,
  };
}

/** Zulip's Reminder object: always a direct message to the one who asked for it. */
export function toApiReminder(r: ScheduledMessageRow) {
  return {
    reminder_id: r.id,
    type: "private" as const,
    to: [r.senderId],
    content: r.content,
    rendered_content: r.renderedContent,
    scheduled_delivery_timestamp: r.scheduledAt,
    failed: r.failed,
    reminder_target_message_id: r.reminderTargetMessageId!,
  };
}

export const MAX_REMINDER_NOTE_LENGTH = 1000;

export interface ReminderTarget {
  id: number;
  content: string;
  sender: { id: number; fullName: string };
  url: string;
  /** The channel message's `#**channel>topic@id**` link, or the direct message's other participants. */
  where: { link: string } | { others: { id: number; fullName: string }[] };
}

/** The notification bot's reminder: what was said, where, quoted (widgets named rather than quoted). */
export function reminderContent(m: ReminderTarget, note: string | null, maxLength: number): string {
  const inChannel = "link" in m.where;
  const what = inChannel ? "message" : "direct message";
  let out = note ? `You requested a reminder for the following ${what}. Note:\n > ${note}` : `You requested a reminder for the following ${what}.`;
  out += "\n\n";
  const place = "link" in m.where ? `in ${m.where.link}` : `to ${m.where.others.map(silentMention).join(", ")}`;
  const widget = m.content.startsWith("/poll") ? "poll" : m.content.startsWith("/todo") ? "todo list" : null;
  if (widget) return out + `${silentMention(m.sender)} [sent](${m.url}) a ${widget} ${place}.`;
  out += `${silentMention(m.sender)} [said](${m.url}) ${place}:\n`;
  const fence = unusedFence(m.content);
  const room = maxLength - out.length - `${fence}quote\n\n${fence}`.length;
  const quoted = truncated(m.content, room);
  return out + `${fence}quote\n${quoted}\n${fence}`;
}

/** The notification bot's note to a sender whose scheduled message could not be sent. */
export const scheduledFailureContent = (scheduledAt: number, error: string) =>
  `The message you scheduled for ${globalTime(scheduledAt)} was not sent because of the following error:\n\n> ${error}\n\n[View scheduled messages](#scheduled)\n\n`;
