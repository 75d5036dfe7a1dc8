// One pass over the plain text of every paragraph, after markdown-it has
// parsed it, for the syntax that lives inside ordinary text rather than
// behind a marker character: bare URLs, realm linkifiers, then emoji
// characters — in that order of precedence, as in Zulip. Text inside links
// and code is never touched (code is not a text token; links are skipped).
import type { MarkdownIt, StateCore, Token } from "markdown-it";
import { findBareUrls } from "./bare-urls.ts";
import type { RenderEnv } from "./context.ts";
import { findUnicodeEmoji, unicodeEmojiHtml } from "./emoji.ts";
import { type CompiledLinkifier, compileLinkifiers, linkifierMatches } from "./linkifiers.ts";

/** A stretch of text still to scan, or tokens already produced. */
type Piece = string | Token[];
interface Replacement {
  index: number;
  length: number;
  tokens: Token[];
}

/** Replaces matches in the still-plain pieces (a finder returns them in order, without overlaps); `pieces` itself when none. */
function splitPieces(pieces: Piece[], find: (text: string) => Replacement[]): Piece[] {
  let out: Piece[] | null = null;
  for (let p = 0; p < pieces.length; p++) {
    const piece = pieces[p]!;
    const found = typeof piece === "string" ? find(piece) : [];
    if (found.length === 0) {
      out?.push(piece);
      continue;
    }
    out ??= pieces.slice(0, p);
    const text = piece as string;
    let last = 0;
    for (const r of found) {
      if (r.index < last) continue;
      if (r.index > last) out.push(text.slice(last, r.index));
      out.push(r.tokens);
      last = r.index + r.length;
    }
    if (last < text.length) out.push(text.slice(last));
  }
  return out ?? pieces;
}

function textToken(state: StateCore, content: string): Token {
  const token = new state.Token("text", "", 0);
  token.content = content;
  return token;
}

/** Link tokens like markdown-it's own autolinks; null when the target is not allowed. */
function linkTokens(state: StateCore, url: string, text: string): Token[] | null {
  const href = state.md.normalizeLink(url);
  if (!state.md.validateLink(href)) return null;
  const open = new state.Token("link_open", "a", 1);
  open.attrs = [["href", href]];
  open.markup = "linkify";
  open.info = "auto";
  const close = new state.Token("link_close", "a", -1);
  close.markup = "linkify";
  close.info = "auto";
  return [open, textToken(state, text), close];
}

/** Link replacements for what a finder found; most text has nothing, so no callback runs for it. */
function linkReplacements<T>(state: StateCore, found: T[], link: (match: T) => { index: number; length: number; url: string; text: string }): Replacement[] {
  const out: Replacement[] = [];
  for (const match of found) {
    const { index, length, url, text } = link(match);
    const tokens = linkTokens(state, url, text);
    if (tokens) out.push({ index, length, tokens });
  }
  return out;
}

/** The tokens `text` becomes, or null when it holds nothing to expand (most text: the token is kept as it is). */
function expandText(state: StateCore, text: string, linkifiers: CompiledLinkifier[]): Token[] | null {
  let pieces: Piece[] = [text];
  pieces = splitPieces(pieces, (s) =>
    linkReplacements(state, findBareUrls(s), (u) => ({ index: u.index, length: u.lastIndex - u.index, url: u.url, text: u.text })),
  );
  for (const linkifier of linkifiers) {
    pieces = splitPieces(pieces, (s) =>
      linkReplacements(state, linkifierMatches(linkifier, s), (m) => ({ index: m.index, length: m.text.length, url: m.url, text: m.text })),
    );
  }
  pieces = splitPieces(pieces, (s) =>
    findUnicodeEmoji(s).map((e) => {
      const token = new state.Token("zulip_emoji", "span", 0);
      token.content = unicodeEmojiHtml(e.code, e.name);
      return { index: e.index, length: e.length, tokens: [token] };
    }),
  );
  if (pieces.length === 1 && typeof pieces[0] === "string") return null;
  return pieces.flatMap((p) => (typeof p === "string" ? [textToken(state, p)] : p));
}

function inlineTextPass(state: StateCore): void {
  const linkifiers = compileLinkifiers((state.env as RenderEnv).ctx.linkifiers);
  for (const block of state.tokens) {
    if (block.type !== "inline" || !block.children) continue;
    // A new list of children only once some text expands.
    const children = block.children;
    let expandedChildren: Token[] | null = null;
    let linkDepth = 0;
    for (let i = 0; i < children.length; i++) {
      const token = children[i]!;
      if (token.type === "link_open") linkDepth++;
      if (token.type === "link_close") linkDepth--;
      const expanded = token.type === "text" && linkDepth === 0 ? expandText(state, token.content, linkifiers) : null;
      if (expanded) (expandedChildren ??= children.slice(0, i)).push(...expanded);
      else expandedChildren?.push(token);
    }
    if (expandedChildren) block.children = expandedChildren;
  }
}

export function inlineTextPlugin(md: MarkdownIt): void {
  // After text_join, so escaped characters and entities are part of the text they sit in.
  md.core.ruler.push("zulip_inline_text", inlineTextPass);
}
