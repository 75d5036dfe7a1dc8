// Unicode emoji names and codes, from emoji-datasource (iamcal's emoji-data,
// the common source of :short_name: vocabularies), in Zulip's code format: lowercase hex
// code points joined by "-", without the FE0F variation selector ("2764",
// "1f937-200d-2640"). One table serves messages, reactions and the
// server_emoji_data_url document, so they always agree.
// Embedded as text and parsed on first use: evaluating the 1.3 MB table as a module cost every start
// ~150 ms and ~25 MB, though most processes never look an emoji up.
import emojiJson from "emoji-datasource/emoji.json" with { type: "text" };
import type { MarkdownIt, StateInline, Token } from "markdown-it";
import type { RenderEnv } from "./context.ts";
import { element, openTag } from "./html.ts";
import { matchAt } from "./syntax.ts";

export interface UnicodeEmoji {
  emoji_code: string;
  emoji_name: string;
  reaction_type: "unicode_emoji";
}

interface EmojiTables {
  codeByName: Map<string, string>;
  namesByCode: Map<string, string[]>;
}

let tables: EmojiTables | null = null;

/** Built on first use: most processes that import the renderer never look up an emoji. */
function emojiTables(): EmojiTables {
  if (tables) return tables;
  const codeByName = new Map<string, string>();
  const namesByCode = new Map<string, string[]>();
  const entries: { unified: string; non_qualified: string | null; short_names: string[]; category: string }[] = JSON.parse(emojiJson as unknown as string);
  for (const entry of entries) {
    // Skin-tone swatches are modifiers, not emoji of their own (Zulip refuses them too).
    if (entry.category === "Component") continue;
    const code = (entry.non_qualified ?? entry.unified).toLowerCase().replace(/-fe0f/g, "");
    if (namesByCode.has(code)) continue;
    namesByCode.set(code, entry.short_names);
    for (const name of entry.short_names) if (!codeByName.has(name)) codeByName.set(name, code);
  }
  tables = { codeByName, namesByCode };
  return tables;
}

/** The Unicode emoji called `name` (any of its aliases), as a reaction would store it. */
export function emojiByName(name: string): UnicodeEmoji | null {
  const code = emojiTables().codeByName.get(name);
  return code === undefined ? null : { emoji_code: code, emoji_name: name, reaction_type: "unicode_emoji" };
}

/** The Unicode emoji with this code, under its canonical (first) name. */
export function emojiByCode(code: string): UnicodeEmoji | null {
  const names = emojiTables().namesByCode.get(code.toLowerCase());
  return names ? { emoji_code: code.toLowerCase(), emoji_name: names[0]!, reaction_type: "unicode_emoji" } : null;
}

/** `code_to_names` for the document behind `server_emoji_data_url`. */
export function emojiCodeToNames(): Record<string, string[]> {
  return Object.fromEntries(emojiTables().namesByCode);
}

const title = (name: string): string => name.replace(/_/g, " ");

/** Zulip's markup for a Unicode emoji written as `:name:` (or found as a character). */
export const unicodeEmojiHtml = (code: string, name: string): string =>
  element("span", { "aria-label": title(name), class: `emoji emoji-${code}`, role: "img", title: title(name) }, `:${name}:`);

/** Zulip's markup for a custom (realm) emoji. */
const customEmojiHtml = (src: string, name: string): string =>
  openTag("img", { alt: `:${name}:`, class: "emoji", src, title: title(name) });

// An emoji sequence per Unicode TR51: a regional-indicator pair, or an emoji
// with an optional modifier, presentation selector/keycap or tag run, joined
// to more of the same by ZWJ.
const ELEMENT = String.raw`(?:\p{Regional_Indicator}{2}|\p{Emoji}(?:\p{Emoji_Modifier}|\uFE0F\u20E3?|[\u{E0020}-\u{E007E}]+\u{E007F})?)`;
const SEQUENCE_RE = new RegExp(`${ELEMENT}(?:\\u200D${ELEMENT})*`, "gu");
// Digits, "#", "©", arrows… are \p{Emoji} but are text unless a selector follows.
const TEXT_PRESENTATION_RE = /^\P{Emoji_Presentation}\u20E3?$/u;
const NON_ASCII_RE = /[^\x00-\x7f]/;

interface EmojiMatch {
  index: number;
  length: number;
  code: string;
  name: string;
}

/** Emoji characters in plain text that the table knows; unknown sequences stay as text, as in Zulip. */
export function findUnicodeEmoji(text: string): EmojiMatch[] {
  // Every emoji that can match here contains a non-ASCII code point.
  if (!NON_ASCII_RE.test(text)) return [];
  const found: EmojiMatch[] = [];
  for (const m of text.matchAll(SEQUENCE_RE)) {
    const seq = m[0];
    if (TEXT_PRESENTATION_RE.test(seq)) continue;
    const code = [...seq]
      .map((ch) => ch.codePointAt(0)!)
      .filter((cp) => cp !== 0xfe0f)
      .map((cp) => cp.toString(16).padStart(4, "0"))
      .join("-");
    const names = emojiTables().namesByCode.get(code);
    if (names) found.push({ index: m.index!, length: seq.length, code, name: names[0]! });
  }
  return found;
}

const COLON_SYNTAX_RE = /:([\p{L}\p{N}_+-]+):/uy;

/** `:name:` → custom emoji (which wins, as in Zulip) or Unicode emoji; other names stay literal. */
function colonEmojiRule(state: StateInline, silentMode: boolean): boolean {
  if (state.src.charCodeAt(state.pos) !== 0x3a /* : */) return false;
  const m = matchAt(COLON_SYNTAX_RE, state);
  if (!m) return false;
  if (!silentMode) {
    const name = m[1]!;
    const custom = (state.env as RenderEnv).ctx.realmEmoji(name);
    const unicode = emojiByName(name);
    if (custom && !custom.deactivated) state.push("zulip_emoji", "img", 0).content = customEmojiHtml(custom.source_url, name);
    else if (unicode) state.push("zulip_emoji", "span", 0).content = unicodeEmojiHtml(unicode.emoji_code, name);
    // Consumed whole like Zulip, so ":nope:smile:" does not turn into "…nope" + 🙂.
    else state.pending += m[0];
  }
  state.pos += m[0].length;
  return true;
}

export function colonEmojiPlugin(md: MarkdownIt): void {
  md.inline.ruler.before("emphasis", "zulip_emoji", colonEmojiRule);
  md.renderer.rules.zulip_emoji = (tokens: Token[], idx: number) => tokens[idx]!.content;
}
