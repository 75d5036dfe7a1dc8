// Messages: content and topic rules, direct-message conversation keys, and the message object.
import { unprintableAt } from "../lib/text";
import type { MessageRow } from "../db/schema";
import { flagList } from "./message-flags";
import { invalidCharacterTopicPosition, messageMustNotContainNull, messageMustNotBeEmpty } from "./errors";

/** What clients without empty_topic_name support see instead of the empty topic (realm_empty_topic_display_name). */
export const EMPTY_TOPIC_DISPLAY_NAME = "general chat";
/** Zulip marks a resolved topic by this prefix in its name. */
export const RESOLVED_TOPIC_PREFIX = "✔ ";

/** Zulip's truncate_content: cut to `max` characters, ending with the marker. */
export function truncate(s: string, max: number, marker: string): string {
  const chars = [...s];
  return chars.length <= max ? s : chars.slice(0, max - [...marker].length).join("") + marker;
}

/** Cleans message content (Zulip's normalize_body): no trailing space, not empty, no NULs, truncated. */
export function normalizeContent(content: string, maxLength: number): string {
  const body = content.trimEnd();
  if (!body) throw messageMustNotBeEmpty();
  if (body.includes("\x00")) throw messageMustNotContainNull();
  return truncate(body, maxLength, "\n[message truncated]");
}

/** Cleans a topic name: trimmed, truncated to the limit, and free of control characters. */
export function normalizeTopic(topic: string, maxLength: number): string {
  const t = truncate(topic.trim(), maxLength, "...");
  const bad = unprintableAt(t);
  if (bad) throw invalidCharacterTopicPosition(bad);
  return t;
}

/** A topic as a client sees it: the empty topic becomes the display name for clients that lack support. */
export const topicForClient = (topic: string, allowEmptyTopicName: boolean) => (topic === "" && !allowEmptyTopicName ? EMPTY_TOPIC_DISPLAY_NAME : topic);

/** Whether a message's text contains an alert word: case-insensitive, not inside a longer word (Zulip's rule). */
export function hasAlertWord(text: string, words: readonly string[]): boolean {
  const lower = text.toLowerCase();
  return words.some((w) => {
    const word = w.toLowerCase();
    for (let i = lower.indexOf(word); i >= 0; i = lower.indexOf(word, i + 1)) {
      const before = lower[i - 1];
      const after = lower[i + word.length];
      if ((before === undefined || !/[\p{L}\p{N}_]/u.test(before)) && (after === undefined || !/[\p{L}\p{N}_]/u.test(after))) return true;
    }
    return false;
  });
}

/** The conversation key of a direct-message group: its participants' ids, sorted and deduplicated. */
export const dmKey = (userIds: readonly number[]) => [...new Set(userIds)].sort((a, b) => a - b).join(",");
export const dmKeyMembers = (key: string) => key.split(",").map(Number);

/** A stored edit-history entry (Zulip's, most recent first). */
export interface EditHistoryEntry {
  user_id: number | null;
  timestamp: number;
  prev_content?: string;
  prev_rendered_content?: string;
  prev_stream?: number;
  stream?: number;
  prev_topic?: string;
  topic?: string;
}

export const parseEditHistory = (json: string | null): EditHistoryEntry[] => (json ? (JSON.parse(json) as EditHistoryEntry[]) : []);

/** Who sent a message, as its object names them. */
export interface MessageSender {
  id: number;
  email: string;
  fullName: string;
  avatarUrl: string;
  /** The avatar is the email's gravatar: a client_gravatar client computes it itself. */
  gravatar: boolean;
}

export type MessageRecipient =
  | { type: "stream"; channelId: number; name: string }
  | { type: "private"; users: { id: number; email: string; full_name: string }[] };

export interface ApiReaction {
  emoji_name: string;
  emoji_code: string;
  reaction_type: string;
  user_id: number;
}

export interface MessageViewOptions {
  applyMarkdown: boolean;
  clientGravatar: boolean;
  allowEmptyTopicName: boolean;
  /** The realm's message_edit_history_visibility_policy: all, moves (topic and channel changes only) or none. */
  editHistoryPolicy: string;
}

export interface MessageParts {
  sender: MessageSender;
  recipient: MessageRecipient;
  realmStr: string;
  reactions: ApiReaction[];
  /** Zulip's submessages (widget state), oldest first. */
  submessages: readonly object[];
  topicLinks: { text: string; url: string }[];
  /** The agent's embedded bot sent it. */
  isAgentMessage: boolean;
  /** The topic's workspace (docs/extensions.md), shown on its messages. */
  workspaceUuid?: string;
}

/** Edit history as a client may see it: filtered by the realm policy, empty topics substituted. */
export function visibleEditHistory(entries: EditHistoryEntry[], policy: string, allowEmptyTopicName: boolean): EditHistoryEntry[] | undefined {
  if (!entries.length || policy === "none") return undefined;
  const out: EditHistoryEntry[] = [];
  for (const e of entries) {
    let v: EditHistoryEntry = { ...e };
    if (policy === "moves") {
      const { prev_content, prev_rendered_content, ...moves } = v;
      if (moves.prev_topic === undefined && moves.prev_stream === undefined) continue;
      v = moves;
    }
    if (v.prev_topic !== undefined) v.prev_topic = topicForClient(v.prev_topic, allowEmptyTopicName);
    if (v.topic !== undefined) v.topic = topicForClient(v.topic, allowEmptyTopicName);
    out.push(v);
  }
  return out.length ? out : undefined;
}

/** The message object (one serializer for the fetch, single-message fetch and message events). */
export function toApiMessage(m: MessageRow, p: MessageParts, v: MessageViewOptions, extra: { flags?: number } = {}) {
  const out: Record<string, unknown> = {
    id: m.id,
    sender_id: m.senderId,
    content: v.applyMarkdown ? m.renderedContent : m.content,
    content_type: v.applyMarkdown ? "text/html" : "text/x-markdown",
    recipient_id: m.recipientId,
    timestamp: m.dateSent,
    client: m.client,
    subject: p.recipient.type === "stream" ? topicForClient(m.topic, v.allowEmptyTopicName) : "",
    topic_links: p.topicLinks,
    is_me_message: m.isMeMessage,
    is_agent_message: p.isAgentMessage,
    reactions: p.reactions,
    submessages: p.submessages,
    sender_full_name: p.sender.fullName,
    sender_email: p.sender.email,
    sender_realm_str: p.realmStr,
    display_recipient: p.recipient.type === "stream" ? p.recipient.name : p.recipient.users.map((u) => ({ ...u, is_mirror_dummy: false })),
    type: p.recipient.type,
    avatar_url: v.clientGravatar && p.sender.gravatar ? null : p.sender.avatarUrl,
  };
  if (p.recipient.type === "stream") out.stream_id = p.recipient.channelId;
  if (p.workspaceUuid) out.workspace_uuid = p.workspaceUuid;
  const history = visibleEditHistory(parseEditHistory(m.editHistory), v.editHistoryPolicy, v.allowEmptyTopicName);
  if (history) out.edit_history = history;
  if (m.lastEditTime !== null) out.last_edit_timestamp = m.lastEditTime;
  if (m.lastMovedTime !== null) out.last_moved_timestamp = m.lastMovedTime;
  if (extra.flags !== undefined) out.flags = flagList(extra.flags);
  return out;
}

// ---- Markdown pieces of the notification bot's messages ----

/** A silent mention: names the user without notifying them. */
export const silentMention = (u: { id: number; fullName: string }) => `@_**${u.fullName}|${u.id}**`;

/** A global time (<time:…>), shown in each reader's timezone. */
export const globalTime = (unixSeconds: number) => `<time:${new Date(unixSeconds * 1000).toISOString()}>`;

/** A code fence the quoted text cannot close. */
export function unusedFence(text: string): string {
  let fence = "```";
  while (text.includes(fence)) fence += "`";
  return fence;
}

const TRUNCATED = "\n[message truncated]";

/** The text cut to `max` characters with Zulip's "[message truncated]" mark, when longer. */
export const truncated = (text: string, max: number) => (text.length > max ? text.slice(0, Math.max(0, max - TRUNCATED.length)) + TRUNCATED : text);
