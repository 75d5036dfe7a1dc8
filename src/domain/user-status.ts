import type { UserStatusRow } from "../db/schema";

export const MAX_STATUS_TEXT_LENGTH = 60;
export const REACTION_TYPES = ["unicode_emoji", "realm_emoji", "zulip_extra_emoji"] as const;

/** A status as Zulip shows it: only the parts that are set. */
export function toApiUserStatus(s: UserStatusRow | undefined): Record<string, unknown> {
  if (!s) return {};
  const out: Record<string, unknown> = {};
  if (s.away) out.away = true;
  if (s.statusText) out.status_text = s.statusText;
  if (s.emojiName) Object.assign(out, { emoji_name: s.emojiName, emoji_code: s.emojiCode, reaction_type: s.reactionType });
  return out;
}
