// What a person can do to a message. Each calls the API and nothing else: the store changes when the
// server's event arrives.
import { signal } from "@preact/signals";
import { api } from "../api/client";
import type { Message } from "../api/types";
import { dmOperand, dmPeers } from "../store/narrow";
import { dmHref, narrowHref, topicHref } from "../store/router";
import { me, messages } from "../store/state";
import { say, sayError } from "../ui/toast";

export const editing = signal<number | null>(null);
/** A dialog about one message: edit history, read receipts, move, emoji picker. */
export const messageDialog = signal<{ kind: "history" | "receipts" | "move" | "react"; id: number } | null>(null);

export function toggleReaction(m: Message, emoji: { emoji_name: string; emoji_code: string; reaction_type: string }) {
  const mine = m.reactions.some((r) => r.user_id === me.value.user_id && r.emoji_code === emoji.emoji_code && r.reaction_type === emoji.reaction_type);
  const call = mine ? api.delete : api.post;
  call(`messages/${m.id}/reactions`, { emoji_name: emoji.emoji_name, emoji_code: emoji.emoji_code, reaction_type: emoji.reaction_type }).catch(sayError);
}

export const toggleStar = (m: Message) =>
  api.post("messages/flags", { messages: [m.id], op: m.flags.includes("starred") ? "remove" : "add", flag: "starred" }).catch(sayError);

export function deleteMessage(m: Message) {
  if (confirm("Delete this message for everyone?")) api.delete(`messages/${m.id}`).catch(sayError);
}

export const messageLink = (m: Message) =>
  `${location.origin}/${
    m.type === "stream"
      ? narrowHref(
          [
            { operator: "channel", operand: m.stream_id! },
            { operator: "topic", operand: m.subject },
          ],
          m.id,
        )
      : narrowHref([{ operator: "dm", operand: dmOperand(dmPeers(m, me.value.user_id), me.value.user_id) }], m.id)
  }`;

export function copyLink(m: Message) {
  navigator.clipboard?.writeText(messageLink(m)).then(
    () => say("Link copied"),
    () => prompt("Copy this link", messageLink(m)),
  );
}

/** Set by "mark as unread": the open list stops marking messages read until one leaves it. */
export const readMarkingPaused = signal(false);

/** Marks this message and every later one of the list as unread. */
export function markUnreadFrom(m: Message, listIds: number[]) {
  readMarkingPaused.value = true;
  const ids = listIds.filter((id) => id >= m.id);
  api.post("messages/flags", { messages: ids, op: "remove", flag: "read" }).catch(sayError);
}

export async function rawContent(id: number): Promise<string> {
  const r = await api.get(`messages/${id}`, { apply_markdown: false });
  return r.message?.content ?? r.raw_content ?? "";
}

/** Quote and reply: the compose box opens on the message's conversation with the quote inserted. */
export async function quoteReply(m: Message) {
  try {
    const raw = await rawContent(m.id);
    const fence = raw.includes("```") ? "````" : "```";
    const text = `@_**${m.sender_full_name}|${m.sender_id}** [said](${messageLink(m)}):\n${fence}quote\n${raw}\n${fence}\n`;
    replyTo(m, text);
  } catch (e) {
    sayError(e);
  }
}

/** Opens the compose box on the message's conversation (and its narrow when elsewhere). */
export function replyTo(m: Message, insert = "") {
  document.dispatchEvent(
    new CustomEvent("compose", {
      detail: m.type === "stream" ? { streamId: m.stream_id, topic: m.subject, insert } : { to: dmPeers(m, me.value.user_id), insert },
    }),
  );
}

export const conversationHref = (m: Message) =>
  m.type === "stream" ? topicHref(m.stream_id!, m.subject) : dmHref(dmOperand(dmPeers(m, me.value.user_id), me.value.user_id));

export const getMessage = (id: number) => messages.get(id)?.value;
