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

/** Emoji whose names start with (then contain) the query, best first. */
export function searchEmoji(list: EmojiChoice[], q: string, limit = 60): EmojiChoice[] {
  q = q.toLowerCase().replace(/\s+/g, "_");
  if (!q) return list.slice(0, limit);
  const exact = list.filter((e) => e.aliases.includes(q));
  const starts = list.filter((e) => !exact.includes(e) && e.aliases.some((a) => a.startsWith(q)));
  const contains = list.filter((e) => !exact.includes(e) && !starts.includes(e) && e.aliases.some((a) => a.includes(q)));
  return [...exact, ...starts, ...contains].slice(0, limit);
}
