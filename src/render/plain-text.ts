// Most chat messages are a plain sentence. For one with no character that any Markdown or Zulip rule
// starts at, markdown-it would make one paragraph holding one text token; that paragraph is written
// here directly, without parsing. test/unit/render-plain-text.test.ts holds it to the full renderer.
import { findBareUrls } from "./bare-urls.ts";
import type { RenderContext } from "./context.ts";
import { findUnicodeEmoji } from "./emoji.ts";
import { compileLinkifiers, linkifierMatches } from "./linkifiers.ts";

// markdown-it's inline terminators (\n ! # $ % & * + - : < = > @ [ \ ] ^ _ ` { } ~: every inline rule,
// Zulip's included, starts at one), "|" (tables), and control characters (tabs, line breaks and NUL,
// which markdown-it normalizes). Checked first: most messages that are not plain have one early on.
const NOT_PLAIN_ASCII_RE = /[\x00-\x1f\x7f!#$%&*+\-:<=>@[\\\]^_`{|}~]/;
// A letter first: no list, heading, quote, fence, indented code or table starts with one.
const LETTER_FIRST_RE = /^\p{L}/u;
const NON_ASCII_RE = /[^\x00-\x7f]/;
// Beyond ASCII, only letters, marks, digits and punctuation: no other white space (a paragraph's is trimmed), no symbols.
const PLAIN_UNICODE_RE = /^[\x00-\x7f\p{L}\p{M}\p{N}\p{P}]*$/u;

/** The HTML of `content` if it is one plain paragraph with nothing to link or turn into an emoji, else null. */
export function plainParagraphHtml(content: string, ctx: RenderContext): string | null {
  if (NOT_PLAIN_ASCII_RE.test(content) || !LETTER_FIRST_RE.test(content) || content.endsWith(" ")) return null;
  if (NON_ASCII_RE.test(content) && !PLAIN_UNICODE_RE.test(content)) return null;
  // What the inline-text pass would act on: bare URLs, realm linkifiers, emoji characters.
  if (findBareUrls(content).length > 0 || findUnicodeEmoji(content).length > 0) return null;
  if (compileLinkifiers(ctx.linkifiers).some((linkifier) => linkifierMatches(linkifier, content).length > 0)) return null;
  // Nothing here needs escaping: & < > are excluded above.
  return `<p>${content}</p>`;
}
