// The emoji vocabulary (loaded on first use: the picker and the ":" typeahead), Unicode and the realm's own.
import { realmEmoji } from "../store/state";

export interface EmojiChoice {
  emoji_name: string;
  emoji_code: string;
  reaction_type: "unicode_emoji" | "realm_emoji";
  aliases: string[];
  category: string;
}

let unicode: Promise<EmojiChoice[]> | null = null;

export function loadUnicodeEmoji(): Promise<EmojiChoice[]> {
  return (unicode ??= import("./emoji-data.json").then((m) => {
    const data = (m.default ?? m) as Record<string, string[][]>;
    return Object.entries(data).flatMap(([category, list]) =>
      list.map(([code, ...names]) => ({ emoji_code: code!, emoji_name: names[0]!, aliases: names, reaction_type: "unicode_emoji" as const, category })),
    );
  }));
}

export async function allEmoji(): Promise<EmojiChoice[]> {
  const custom: EmojiChoice[] = Object.values(realmEmoji.value)
    .filter((e) => !e.deactivated)
    .map((e) => ({ emoji_code: e.id, emoji_name: e.name, aliases: [e.name], reaction_type: "realm_emoji", category: "Custom" }));
  return [...custom, ...(await loadUnicodeEmoji())];
}

// Names compare without separators, so Zulip's "thumbs_up" finds emoji-data's "thumbsup".
const bare = (s: string) => s.toLowerCase().replace(/[\s_-]+/g, "");

/** Emoji named the query, then those whose names start with it, then contain it. */
export function searchEmoji(list: EmojiChoice[], query: string, limit = 60): EmojiChoice[] {
  const q = bare(query);
  if (!q) return list.slice(0, limit);
  const rank = (e: EmojiChoice) => {
    const names = e.aliases.map(bare);
    return names.includes(q) ? 0 : names.some((a) => a.startsWith(q)) ? 1 : names.some((a) => a.includes(q)) ? 2 : 3;
  };
  const ranked = list.map((e) => [rank(e), e] as const).filter(([r]) => r < 3);
  return ranked
    .sort((a, b) => a[0] - b[0])
    .slice(0, limit)
    .map(([, e]) => e);
}
