// Unicode emoji names and codes: Zulip's own vocabulary (canonical names and aliases, e.g. ":smile:"
// is 1f642 and "thumbs_up" an alias of "+1"), generated into zulip-emoji-names.json by
// scripts/zulip-emoji-names.ts (the file names its source). Codes are Zulip's: lowercase hex code points
// joined by "-", without the FE0F variation selector ("2764", "1f937-200d-2640"). One table serves
// messages, reactions, statuses and the server_emoji_data_url document, so they always agree.
// Embedded as text and parsed on first use: most processes never look an emoji up.
import emojiJson from "./zulip-emoji-names.json" with { type: "text" };
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
  /** Zulip keeps FE0F inside a few sequence codes ("1f3cb-fe0f-200d-2640-fe0f"); found without it too. */
  codeByBareCode: Map<string, string>;
}

const bare = (code: string) => code.replace(/-fe0f/g, "");

let tables: EmojiTables | null = null;

/** Built on first use: most processes that import the renderer never look up an emoji. */
function emojiTables(): EmojiTables {
  if (tables) return tables;
  const codeToNames: Record<string, string[]> = JSON.parse(emojiJson as unknown as string).code_to_names;
  const codeByName = new Map<string, string>();
  const namesByCode = new Map<string, string[]>();
  const codeByBareCode = new Map<string, string>();
  for (const [code, names] of Object.entries(codeToNames)) {
    namesByCode.set(code, names);
    codeByBareCode.set(bare(code), code);
    for (const name of names) codeByName.set(name, code);
  }
  tables = { codeByName, namesByCode, codeByBareCode };
  return tables;
}

/** The Unicode emoji called `name` (any of its aliases), as a reaction would store it. */
export function emojiByName(name: string): UnicodeEmoji | null {
  const code = emojiTables().codeByName.get(name);
  return code === undefined ? null : { emoji_code: code, emoji_name: name, reaction_type: "unicode_emoji" };
}

/** The Unicode emoji with this code (Zulip's spelling), under its canonical (first) name. */
export function emojiByCode(code: string): UnicodeEmoji | null {
  const lower = code.toLowerCase();
  const names = emojiTables().namesByCode.get(lower);
  return names ? { emoji_code: lower, emoji_name: names[0]!, reaction_type: "unicode_emoji" } : null;
}

/** `code_to_names` for the document behind `server_emoji_data_url`. */
export function emojiCodeToNames(): Record<string, string[]> {
  return Object.fromEntries(emojiTables().namesByCode);
}

let document: { json: string; hash: string } | null = null;

/** The server_emoji_data_url document ({"code_to_names": …}) and a hash of it for its URL. */
export function emojiDataDocument(): { json: string; hash: string } {
  if (document) return document;
  const json = JSON.stringify({ code_to_names: emojiCodeToNames() });
  document = { json, hash: new Bun.CryptoHasher("sha256").update(json).digest("hex").slice(0, 16) };
  return document;
}

const title = (name: string): string => name.replace(/_/g, " ");

/** Zulip's markup for a Unicode emoji written as `:name:` (or found as a character). */
export const unicodeEmojiHtml = (code: string, name: string): string =>
  element("span", { "aria-label": title(name), class: `emoji emoji-${code}`, role: "img", title: title(name) }, `:${name}:`);

/** Zulip's markup for a custom (realm) emoji. */
const customEmojiHtml = (src: string, name: string): string => openTag("img", { alt: `:${name}:`, class: "emoji", src, title: title(name) });

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
    const t = emojiTables();
    const code = t.codeByBareCode.get(
      [...seq]
        .map((ch) => ch.codePointAt(0)!)
        .filter((cp) => cp !== 0xfe0f)
        .map((cp) => cp.toString(16).padStart(4, "0"))
        .join("-"),
    );
    if (code) found.push({ index: m.index!, length: seq.length, code, name: t.namesByCode.get(code)![0]! });
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
