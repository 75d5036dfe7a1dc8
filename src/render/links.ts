// Links after parsing: links into this realm become relative, a link with no
// text shows its target, and links to images and videos get Zulip's inline
// preview right after their paragraph (or inside their tight list item).
// Quoted links get no preview, and a paragraph that was nothing but the bare
// URL is replaced by the preview.
import type { MarkdownIt, StateCore, Token } from "markdown-it";
import type { RenderEnv } from "./context.ts";
import { openTag } from "./html.ts";
import { previewKind, relativizeRealmUrl } from "./urls.ts";

export type Preview = {
  kind: "image" | "video";
  href: string;
  title: string | undefined;
};

// Zulip previews nothing in a message with more distinct unquoted links than this.
const MAX_LINKS_WITH_PREVIEWS = 24;

/** The tokens between a link_open at `from` and its link_close. */
function linkBody(children: Token[], from: number): Token[] {
  let close = from + 1;
  while (close < children.length && children[close]!.type !== "link_close") close++;
  return children.slice(from + 1, close);
}

/** Plain text of a link (what Zulip puts in a preview's title). */
const linkText = (children: Token[], from: number): string =>
  linkBody(children, from)
    .filter((t) => t.type === "text" || t.type === "code_inline")
    .map((t) => t.content)
    .join("");

function finishLinks(state: StateCore): void {
  const { realmUrl } = (state.env as RenderEnv).ctx;
  for (const block of state.tokens) {
    const children = block.children ?? [];
    for (let i = 0; i < children.length; i++) {
      const token = children[i]!;
      if (token.type !== "link_open") continue;
      const href = relativizeRealmUrl(String(token.attrGet("href")), realmUrl);
      token.attrSet("href", href);
      const body = linkBody(children, i);
      if (body.every((t) => t.type === "text" && t.content.trim() === "")) {
        // Zulip shows the target of "[](url)" rather than an invisible link.
        const text = new state.Token("text", "", 0);
        text.content = href;
        children.splice(i + 1, body.length, text);
      }
    }
  }
}

interface Candidate {
  inlineIndex: number;
  preview: Preview;
  onlyContent: boolean;
}

/** Previews to add, first occurrence of each URL only; none when the message has too many links. */
function findCandidates(tokens: Token[]): Candidate[] {
  const found: Candidate[] = [];
  const seen = new Set<string>();
  let quoteDepth = 0;
  tokens.forEach((block, inlineIndex) => {
    if (block.type === "blockquote_open") quoteDepth++;
    if (block.type === "blockquote_close") quoteDepth--;
    if (block.type !== "inline" || quoteDepth > 0) return;
    // Only in paragraphs: a link in a heading or table cell gets no preview.
    const inParagraph = tokens[inlineIndex - 1]?.type === "paragraph_open";
    const children = block.children ?? [];
    children.forEach((token, i) => {
      if (token.type !== "link_open") return;
      const href = String(token.attrGet("href"));
      if (seen.has(href)) return;
      seen.add(href);
      const kind = previewKind(href);
      if (!kind || !inParagraph) return;
      const text = linkText(children, i);
      const bare = text === href;
      found.push({ inlineIndex, preview: { kind, href, title: bare ? undefined : text }, onlyContent: bare && children.length === 3 });
    });
  });
  return seen.size > MAX_LINKS_WITH_PREVIEWS ? [] : found;
}

function addPreviews(state: StateCore): void {
  const candidates = findCandidates(state.tokens);
  // Insert from the end so earlier indices stay valid; previews of one paragraph keep their order.
  for (let c = candidates.length - 1; c >= 0; c--) {
    const { inlineIndex, preview, onlyContent } = candidates[c]!;
    if (onlyContent) {
      state.tokens[inlineIndex]!.children = [];
      state.tokens[inlineIndex - 1]!.hidden = true;
      state.tokens[inlineIndex + 1]!.hidden = true;
    }
    const token = new state.Token("zulip_preview", "div", 0);
    token.meta = preview;
    token.block = true;
    state.tokens.splice(inlineIndex + 2, 0, token);
  }
}

function previewHtml({ kind, href, title }: Preview): string {
  const media = kind === "image" ? openTag("img", { src: href }) : openTag("video", { preload: "metadata", src: href }) + "</video>";
  const divClass = kind === "image" ? "message_inline_image" : "message_inline_image message_inline_video";
  return `<div class="${divClass}">${openTag("a", { href, title })}${media}</a></div>`;
}

export function linksPlugin(md: MarkdownIt): void {
  md.core.ruler.push("zulip_links", finishLinks);
  md.core.ruler.push("zulip_previews", addPreviews);
  md.renderer.rules.zulip_preview = (tokens: Token[], idx: number) => previewHtml(tokens[idx]!.meta as Preview);
}
