// TeX math with KaTeX: inline $$…$$ and ```math blocks, as Zulip renders them
// (KaTeX's HTML+MathML output; a formula KaTeX rejects becomes a "tex-error"
// span holding the escaped source).
import type { MarkdownIt, StateInline, Token } from "markdown-it";
import { escapeText } from "./html.ts";
import { matchAt } from "./syntax.ts";

// KaTeX 0.18 prefixed these internal class names with "katex-". Zulip's
// clients (the Flutter app parses KaTeX markup; the web app ships KaTeX
// 0.16's CSS) read the old names, which Zulip's own server still emits, so
// the output is given the old names back. With these renamed, the output is
// identical to Zulip's test fixtures.
const PREFIXED_CLASSES_RE =
  /\bkatex-(newline|base|strut|vbox|overline|underline|thinbox|rule|smash|fix|inner|root|hline|hdashline|sizing|accent|overlay|stretchy|sout|tag)\b/g;

/**
 * `trust: false` keeps \href, \url, \htmlClass… from producing links or
 * attributes; throwOnError makes bad input a visible tex-error, like Zulip,
 * instead of KaTeX's red inline fallback.
 */
function renderTex(tex: string, displayMode: boolean): string | null {
  try {
    const katex = require("katex") as typeof import("katex").default; // loaded by the first formula, not at start
    const html = katex.renderToString(tex, { displayMode, throwOnError: true, trust: false, strict: "ignore", output: "htmlAndMathml" });
    return html.replace(/ class="([^"]*)"/g, (_, classes: string) => ` class="${classes.replace(PREFIXED_CLASSES_RE, "$1")}"`);
  } catch {
    return null;
  }
}

// Zulip's inline syntax: "$$", a body that neither starts with "_" or "$"
// nor contains an unescaped "$" or a newline, "$$", with no word character
// or "$" touching either end ("$$$", "a$$b$$c" and "$$_$$" stay text).
const INLINE_TEX_RE = /\$\$([^\n_$](?:\\\$|[^$\n])*)\$\$(?!\$)/y;
const WORD_CHAR_RE = /\w/;

function inlineTexRule(state: StateInline, silentMode: boolean): boolean {
  const { src, pos } = state;
  if (src.charCodeAt(pos) !== 0x24 /* $ */ || src.charCodeAt(pos + 1) !== 0x24) return false;
  if (pos > 0 && (src[pos - 1] === "$" || WORD_CHAR_RE.test(src[pos - 1]!))) return false;
  const m = matchAt(INLINE_TEX_RE, state);
  const end = m ? pos + m[0].length : 0;
  if (!m || (end < src.length && WORD_CHAR_RE.test(src[end]!))) return false;
  if (!silentMode) state.push("zulip_tex", "span", 0).content = m[1]!;
  state.pos = end;
  return true;
}

function inlineTexHtml(tex: string): string {
  return renderTex(tex, false) ?? `<span class="tex-error">${escapeText("$$" + tex + "$$")}</span>`;
}

/** A ```math block: each blank-line-separated paragraph is one display formula in its own <p>. */
export function mathBlockHtml(source: string): string {
  return source
    .replace(/\n+$/, "")
    .split("\n\n")
    .map((tex) => `<p>${renderTex(tex, true) ?? `<span class="tex-error">${escapeText(tex)}</span>`}</p>\n`)
    .join("");
}

export function mathPlugin(md: MarkdownIt): void {
  md.inline.ruler.before("emphasis", "zulip_tex", inlineTexRule);
  md.renderer.rules.zulip_tex = (tokens: Token[], idx: number) => inlineTexHtml(tokens[idx]!.content);
}
