// Per-user message flags, stored as one bitmask per user_messages row. The bit values are part of the
// schema (migrations/0004_user_messages_and_search.sql indexes some of them): never renumber.
export const FLAG = {
  read: 1,
  starred: 2,
  collapsed: 4,
  mentioned: 8,
  stream_wildcard_mentioned: 16,
  topic_wildcard_mentioned: 32,
  has_alert_word: 64,
  historical: 128,
  is_private: 256, // internal: a direct message (serves is:dm); never shown to clients
} as const;

export type FlagName = keyof typeof FLAG;

/** Any mention of the user, as is:mentioned counts it (matches the user_messages_mentioned index). */
export const MENTION_MASK = FLAG.mentioned | FLAG.stream_wildcard_mentioned | FLAG.topic_wildcard_mentioned;

const SHOWN: [string, number][] = [
  ["read", FLAG.read],
  ["starred", FLAG.starred],
  ["collapsed", FLAG.collapsed],
  ["mentioned", FLAG.mentioned],
  ["stream_wildcard_mentioned", FLAG.stream_wildcard_mentioned],
  ["topic_wildcard_mentioned", FLAG.topic_wildcard_mentioned],
  ["has_alert_word", FLAG.has_alert_word],
  ["historical", FLAG.historical],
];

/** The flag names a client sees; `wildcard_mentioned` is the deprecated union of both wildcard flags. */
export function flagList(bits: number): string[] {
  return [...flagNames(bits)];
}

// A send builds one flag list per recipient, mostly from the same few bit patterns.
const namesByBits = new Map<number, readonly string[]>();
/** flagList, shared and frozen (for events, where one list may serve many recipients). */
export function flagNames(bits: number): readonly string[] {
  const hit = namesByBits.get(bits);
  if (hit) return hit;
  const out: string[] = [];
  for (const [name, bit] of SHOWN) if (bits & bit) out.push(name);
  if (bits & (FLAG.stream_wildcard_mentioned | FLAG.topic_wildcard_mentioned)) out.push("wildcard_mentioned");
  Object.freeze(out);
  namesByBits.set(bits, out);
  return out;
}

/** Flags clients may change with POST /messages/flags (Zulip refuses the rest). */
export const EDITABLE_FLAGS = ["read", "starred", "collapsed"] as const;
/** Flags Zulip accepts in the request but silently ignores. */
export const NON_EDITABLE_FLAGS = ["mentioned", "stream_wildcard_mentioned", "topic_wildcard_mentioned", "wildcard_mentioned", "has_alert_word", "historical"];
