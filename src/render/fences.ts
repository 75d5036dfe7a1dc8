// Fenced blocks in Zulip's dialect: code blocks in Zulip's "codehilite"
// markup, ```math, and the containers ```quote and ```spoiler Header,
// whose contents are Markdown and may nest further fences.
import type { MarkdownIt, StateBlock, Token } from "markdown-it";
import { escapeAttr } from "./html.ts";
import { mathBlockHtml } from "./math.ts";

// Zulip labels code blocks with the Pygments lexer's display name
// (`data-code-language="Python"`), which web clients use to offer a
// playground. These are the common aliases; other languages keep the name
// the author typed, as Zulip does for languages Pygments does not know.
const LANGUAGE_NAMES: Record<string, string> = {};
for (const [name, aliases] of Object.entries({
  Python: "python py python3 py3",
  "Python 2.x": "python2 py2",
  JavaScript: "javascript js",
  TypeScript: "typescript ts",
  JSON: "json",
  HTML: "html",
  CSS: "css",
  SCSS: "scss",
  C: "c",
  "C++": "cpp c++",
  "C#": "csharp c#",
  Java: "java",
  Go: "go golang",
  Rust: "rust rs",
  Ruby: "ruby rb",
  Bash: "bash sh shell zsh",
  "Bash Session": "console shell-session",
  PowerShell: "powershell ps1 pwsh",
  SQL: "sql",
  YAML: "yaml yml",
  TOML: "toml",
  XML: "xml",
  Markdown: "markdown md",
  TeX: "tex latex",
  Diff: "diff patch",
  PHP: "php",
  Kotlin: "kotlin kt",
  Swift: "swift",
  Scala: "scala",
  Haskell: "haskell hs",
  Elixir: "elixir ex exs",
  Erlang: "erlang",
  OCaml: "ocaml",
  Clojure: "clojure clj",
  Dart: "dart",
  Lua: "lua",
  Perl: "perl pl",
  R: "r",
  Julia: "julia jl",
  Docker: "docker dockerfile",
  Makefile: "make makefile mf",
  INI: "ini cfg dosini",
  "Objective-C": "objective-c objc",
  GraphQL: "graphql",
  Nix: "nix nixos",
  Zig: "zig",
  "Text only": "text",
  Protobuf: "protobuf proto",
  Terraform: "terraform tf hcl",
})) {
  for (const alias of aliases.split(" ")) LANGUAGE_NAMES[alias] = name;
}

// Zulip's fence line: ``` or ~~~, then a language such as "py", ".py" or
// "{.py}", then (for spoilers) a header.
const FENCE_LINE_RE = /^(`{3,}|~{3,})[ ]*(?:\{?\.?([a-zA-Z0-9_+\-./#]+)[ ]*([^ ~`][^~`]*)?\}?)?$/;
const INFO_LANG_RE = /^\{?\.?([a-zA-Z0-9_+\-./#]+)/;

/** The lowercase language of a fence's info string, or null. */
function fenceLanguage(info: string): string | null {
  return INFO_LANG_RE.exec(info.trim())?.[1]!.toLowerCase() ?? null;
}

const PYGMENTS_ESCAPES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };

/** Zulip's code block without highlighting: trailing spaces and blank edge lines trimmed. */
function codeBlockHtml(content: string, lang: string | null): string {
  if (content === "") return "";
  const code = content
    .split("\n")
    .map((line) => line.trimEnd())
    .join("\n")
    .replace(/^\n+|\n+$/g, "");
  const language = lang ? ` data-code-language="${escapeAttr(LANGUAGE_NAMES[lang] ?? lang)}"` : "";
  const escaped = code.replace(/[&<>"']/g, (c) => PYGMENTS_ESCAPES[c]!);
  return `<div class="codehilite"${language}><pre><span></span><code>${escaped}\n</code></pre></div>\n`;
}

const CONTAINER_LANGS = new Set(["quote", "quoted", "spoiler"]);

/**
 * ```quote and ```spoiler blocks. Like Zulip, a fence line inside a
 * container opens a nested block, and a container ends only at a line equal
 * to its own fence, so a quote can hold code blocks and other quotes.
 */
function containerRule(state: StateBlock, startLine: number, endLine: number, silentMode: boolean): boolean {
  if (state.sCount[startLine]! - state.blkIndent >= 4) return false;
  // Every line of a paragraph is offered to this rule (it may interrupt one): most start with neither fence character.
  const first = state.src.charCodeAt(state.bMarks[startLine]! + state.tShift[startLine]!);
  if (first !== 0x60 /* ` */ && first !== 0x7e /* ~ */) return false;
  const lineText = (line: number) => state.src.slice(state.bMarks[line]! + state.tShift[line]!, state.eMarks[line]!).trimEnd();
  const open = FENCE_LINE_RE.exec(lineText(startLine));
  const lang = open?.[2]?.toLowerCase();
  if (!open || !lang || !CONTAINER_LANGS.has(lang)) return false;
  if (silentMode) return true;

  const stack: { fence: string; container: boolean }[] = [{ fence: open[1]!, container: true }];
  let line = startLine + 1;
  for (; line < endLine; line++) {
    // A line less indented than the enclosing block (e.g. outside a list item) ends us.
    if (state.sCount[line]! < state.blkIndent && state.bMarks[line]! + state.tShift[line]! < state.eMarks[line]!) break;
    const text = lineText(line);
    const top = stack[stack.length - 1]!;
    if (text === top.fence) {
      stack.pop();
      if (stack.length === 0) break;
    } else if (top.container) {
      const nested = FENCE_LINE_RE.exec(text);
      if (nested) stack.push({ fence: nested[1]!, container: CONTAINER_LANGS.has(nested[2]?.toLowerCase() ?? "") });
    }
  }
  const contentEnd = line;
  const closed = stack.length === 0;

  const oldParent = state.parentType;
  const oldLineMax = state.lineMax;
  state.parentType = "blockquote";
  state.lineMax = contentEnd;
  if (lang === "spoiler") {
    state.push("zulip_spoiler_open", "div", 1).map = [startLine, contentEnd];
    const header = open[3]?.trim();
    if (header) {
      state.push("paragraph_open", "p", 1);
      const inline = state.push("inline", "", 0);
      inline.content = header;
      inline.map = [startLine, startLine + 1];
      inline.children = [];
      state.push("paragraph_close", "p", -1);
    }
    state.push("zulip_spoiler_content", "div", 0);
    state.md.block.tokenize(state, startLine + 1, contentEnd);
    state.push("zulip_spoiler_close", "div", -1);
  } else {
    const quoteOpen = state.push("blockquote_open", "blockquote", 1);
    quoteOpen.markup = open[1]!;
    quoteOpen.map = [startLine, contentEnd];
    state.md.block.tokenize(state, startLine + 1, contentEnd);
    state.push("blockquote_close", "blockquote", -1).markup = open[1]!;
  }
  state.parentType = oldParent;
  state.lineMax = oldLineMax;
  state.line = closed ? contentEnd + 1 : contentEnd;
  return true;
}

export function fencesPlugin(md: MarkdownIt): void {
  md.block.ruler.before("fence", "zulip_container", containerRule, { alt: ["paragraph", "reference", "blockquote", "list"] });
  md.renderer.rules.fence = (tokens: Token[], idx: number) => {
    const { content, info } = tokens[idx]!;
    const lang = fenceLanguage(info);
    if (lang === "math") return content.trim() === "" ? "" : mathBlockHtml(content);
    return codeBlockHtml(content, lang);
  };
  md.renderer.rules.code_block = (tokens: Token[], idx: number) => codeBlockHtml(tokens[idx]!.content, null);
  md.renderer.rules.zulip_spoiler_open = () => '<div class="spoiler-block"><div class="spoiler-header">\n';
  md.renderer.rules.zulip_spoiler_content = () => '</div><div class="spoiler-content" aria-hidden="true">\n';
  md.renderer.rules.zulip_spoiler_close = () => "</div></div>\n";
}
