import type { DraftRow } from "../db/schema";
import {
  draftsSyncDisabled,
  messageMustNotContainNull,
  messageMustNotBeEmpty,
  mustSpecifyExactly1Channel,
  timestampMustNotBeNegative,
  topicMustNotContainNull,
} from "./errors";

export type DraftType = "" | "stream" | "private";
export interface DraftInput {
  type: DraftType;
  to: number[];
  topic: string;
  content: string;
  timestamp?: number;
}

export const toApiDraft = (d: DraftRow) => ({ id: d.id, type: d.type, to: d.to, topic: d.topic, content: d.content, timestamp: d.timestamp });

/**
 * The contract's rules for one draft, as Zulip applies them: no null bytes, non-empty content, exactly
 * one channel for channel drafts; a topic only for channel drafts, recipients only for direct ones.
 * Channel and user checks need the database and are the action's.
 */
export function normalizeDraft(d: DraftInput, now: number, maxTopicLength: number) {
  const content = d.content.replace(/\s+$/, "").replace(/^\n+/, "");
  if (!content) throw messageMustNotBeEmpty();
  if (content.includes("\0")) throw messageMustNotContainNull();
  if (d.timestamp !== undefined && d.timestamp < 0) throw timestampMustNotBeNegative();
  let topic = "";
  let to: number[] = [];
  if (d.type === "stream") {
    if (d.topic.includes("\0")) throw topicMustNotContainNull();
    topic = [...d.topic].slice(0, maxTopicLength).join("");
    if (d.to.length !== 1) throw mustSpecifyExactly1Channel();
    to = d.to;
  } else if (d.type === "private") {
    to = [...new Set(d.to)].sort((a, b) => a - b);
  }
  return { type: d.type, to, topic, content, timestamp: Math.floor(d.timestamp ?? now) };
}
