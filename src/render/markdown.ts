// The one entry point: Zulip-flavoured Markdown → safe HTML plus what the
// message-sending code needs to know (mentions, links, flags). One
// markdown-it instance is configured at the first render (not at start: most
// requests render nothing) and shared by every render; per-render data travels
// in markdown-it's `env`.
import type { MarkdownIt, StateInline, Token } from "markdown-it";
import { channelLinksPlugin, type ChannelLink } from "./channel-links.ts";
import type { RenderContext, RenderEnv, Rendered } from "./context.ts";
import { colonEmojiPlugin } from "./emoji.ts";
import { fencesPlugin } from "./fences.ts";
import { escapeText } from "./html.ts";
import { inlineTextPlugin } from "./inline-text.ts";
import { linksPlugin, type Preview } from "./links.ts";
import { mathPlugin } from "./math.ts";
import { plainParagraphHtml } from "./plain-text.ts";
import { type Mention, mentionsPlugin } from "./mentions.ts";
import { timePlugin } from "./time.ts";
import { usePlainTokens } from "./tokens.ts";
import { isSafeHref, sanitizeUrl, uploadPathId } from "./urls.ts";

/** Zulip has no underscore emphasis (`_foo_`, `__foo__` stay literal): underscores are plain text. */
function literalUnderscores(state: StateInline, silentMode: boolean): boolean {
  if (state.src.charCodeAt(state.pos) !== 0x5f /* _ */) return false;
  let end = state.pos;
  while (state.src.charCodeAt(end) === 0x5f) end++;
  if (!silentMode) state.pending += state.src.slice(state.pos, end);
  state.pos = end;
  return true;
}

function createMarkdown(): MarkdownIt {
  // html: false — raw HTML is always text. breaks: true — Zulip turns every
  // newline inside a paragraph into <br>. linkify: only markdown-it's inline
  // "http://…" rule, which keeps emphasis and emoji syntax from cutting URLs
  // apart; bare host names and e-mail addresses are found in inline-text.ts.
  const MarkdownItCtor = require("markdown-it") as typeof import("markdown-it").default; // its CommonJS build: the constructor itself
  const md = new MarkdownItCtor("default", { html: false, breaks: true, linkify: true, typographer: false });
  usePlainTokens(md);
  md.core.ruler.disable("linkify");
  // Zulip has no setext headings, reference links or <url> autolinks (its "<"
  // is literal text); its image syntax (Zulip 12) only embeds uploads, which
  // confab does not do, so ![alt](url) stays "!" and a link.
  md.disable(["lheading", "reference", "image", "autolink"]);
  // Rules that do nothing without `html` or `typographer` but were still called for every line or message.
  md.disable(["html_block", "html_inline", "replacements", "smartquotes"]);

  const encode = md.normalizeLink.bind(md);
  md.normalizeLink = (url) => {
    const safe = sanitizeUrl(url);
    return safe === null ? "" : encode(safe);
  };
  md.validateLink = isSafeHref;

  md.inline.ruler.before("emphasis", "zulip_underscore", literalUnderscores);
  mentionsPlugin(md);
  channelLinksPlugin(md);
  mathPlugin(md);
  timePlugin(md);
  colonEmojiPlugin(md);
  fencesPlugin(md);
  inlineTextPlugin(md);
  linksPlugin(md);

  // Text is escaped without touching quotes, like Zulip (say "hi", not say &quot;hi&quot;).
  md.renderer.rules.text = (tokens: Token[], idx: number) => escapeText(tokens[idx]!.content);
  md.renderer.rules.code_inline = (tokens: Token[], idx: number) => `<code>${escapeText(tokens[idx]!.content)}</code>`;
  md.renderer.rules.s_open = () => "<del>";
  md.renderer.rules.s_close = () => "</del>";
  return md;
}

let shared: MarkdownIt | undefined;

function summarize(tokens: Token[], ctx: RenderContext, content: string, html: string): Rendered {
  const mentioned = new Set<number>();
  const silent = new Set<number>();
  const groups = new Set<number>();
  const links = new Set<string>();
  let channelWildcard = false;
  let topicWildcard = false;
  let hasImage = false;
  const visit = (token: Token) => {
    if (token.type === "zulip_mention") {
      const m = token.meta as Mention;
      if (m.kind === "user") (m.silent ? silent : mentioned).add(m.id);
      else if (m.kind === "group" && !m.silent) groups.add(m.id);
      else if (m.kind === "channel_wildcard") channelWildcard ||= !m.silent;
      else if (m.kind === "topic_wildcard") topicWildcard ||= !m.silent;
    } else if (token.type === "link_open") {
      links.add(String(token.attrGet("href")));
    } else if (token.type === "zulip_channel_link") {
      links.add((token.meta as ChannelLink).href);
    } else if (token.type === "zulip_preview") {
      const preview = token.meta as Preview;
      links.add(preview.href);
      hasImage ||= preview.kind === "image";
    }
  };
  for (const token of tokens) {
    visit(token);
    token.children?.forEach(visit);
  }
  const attachmentPathIds = [...new Set([...links].map((href) => uploadPathId(href, ctx.realmUrl)).filter((id) => id !== null))];
  return {
    html,
    mentionedUserIds: [...mentioned],
    silentMentionedUserIds: [...silent].filter((id) => !mentioned.has(id)),
    mentionedGroupIds: [...groups],
    channelWildcard,
    topicWildcard,
    // Zulip's rule for a "/me" status message.
    isMeMessage: content.startsWith("/me ") && !content.includes("\n") && html.startsWith("<p>") && html.endsWith("</p>"),
    links: [...links],
    hasImage,
    attachmentPathIds,
    hasAttachment: attachmentPathIds.length > 0,
  };
}

/** Renders message (or description) Markdown in Zulip's dialect. Pure: all data comes from `ctx`. */
export function renderMarkdown(content: string, ctx: RenderContext): Rendered {
  const plain = plainParagraphHtml(content, ctx);
  return plain === null ? renderWithMarkdownIt(content, ctx) : summarize([], ctx, content, plain);
}

/** The whole markdown-it pipeline, which renderMarkdown skips for a plain sentence (its property test compares the two). */
export function renderWithMarkdownIt(content: string, ctx: RenderContext): Rendered {
  const env: RenderEnv = { ctx };
  const md = (shared ??= createMarkdown());
  const tokens = md.parse(content, env);
  const html = md.renderer.render(tokens, md.options, env).replace(/\n+$/, "");
  return summarize(tokens, ctx, content, html);
}
