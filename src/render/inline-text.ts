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

/** Replaces matches in the still-plain pieces; a finder returns matches in order, without overlaps. */
function splitPieces(pieces: Piece[], find: (text: string) => Replacement[]): Piece[] {
  const out: Piece[] = [];
  for (const piece of pieces) {
    if (typeof piece !== "string") {
      out.push(piece);
      continue;
    }
    let last = 0;
    for (const r of find(piece)) {
      if (r.index < last) continue;
      if (r.index > last) out.push(piece.slice(last, r.index));
      out.push(r.tokens);
      last = r.index + r.length;
    }
    if (last < piece.length) out.push(piece.slice(last));
  }
  return out;
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

function expandText(state: StateCore, text: string, linkifiers: CompiledLinkifier[]): Token[] {
  let pieces: Piece[] = [text];
  pieces = splitPieces(pieces, (s) =>
    findBareUrls(s).flatMap((u) => {
      const tokens = linkTokens(state, u.url, u.text);
      return tokens ? [{ index: u.index, length: u.lastIndex - u.index, tokens }] : [];
    }),
  );
  for (const linkifier of linkifiers) {
    pieces = splitPieces(pieces, (s) =>
      linkifierMatches(linkifier, s).flatMap((m) => {
        const tokens = linkTokens(state, m.url, m.text);
        return tokens ? [{ index: m.index, length: m.text.length, tokens }] : [];
      }),
    );
  }
  pieces = splitPieces(pieces, (s) =>
    findUnicodeEmoji(s).map((e) => {
      const token = new state.Token("zulip_emoji", "span", 0);
      token.content = unicodeEmojiHtml(e.code, e.name);
      return { index: e.index, length: e.length, tokens: [token] };
    }),
  );
  return pieces.flatMap((p) => (typeof p === "string" ? [textToken(state, p)] : p));
}

function inlineTextPass(state: StateCore): void {
  const linkifiers = compileLinkifiers((state.env as RenderEnv).ctx.linkifiers);
  for (const block of state.tokens) {
    if (block.type !== "inline" || !block.children) continue;
    const children: Token[] = [];
    let linkDepth = 0;
    for (const token of block.children) {
      if (token.type === "link_open") linkDepth++;
      if (token.type === "link_close") linkDepth--;
      if (token.type === "text" && linkDepth === 0) children.push(...expandText(state, token.content, linkifiers));
      else children.push(token);
    }
    block.children = children;
  }
}

export function inlineTextPlugin(md: MarkdownIt): void {
  // After text_join, so escaped characters and entities are part of the text they sit in.
  md.core.ruler.push("zulip_inline_text", inlineTextPass);
}
