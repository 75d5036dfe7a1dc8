// User, group and wildcard mentions: @**Full Name**, @**Full Name|12**,
// @_**silent**, @*group*, @_*group*, @**all** … @**topic**.
import type { MarkdownIt, StateCore, StateInline, Token } from "markdown-it";
import type { RenderEnv } from "./context.ts";
import { element } from "./html.ts";
import { matchAt, mayStartAt } from "./syntax.ts";

export type Mention =
  | { kind: "user"; id: number; name: string; silent: boolean }
  | { kind: "group"; id: number; name: string; silent: boolean }
  | { kind: "channel_wildcard"; name: string; silent: boolean }
  | { kind: "topic_wildcard"; silent: boolean };

const CHANNEL_WILDCARDS = new Set(["all", "everyone", "channel", "stream"]);
const MENTION_RE = /@(_?)(?:\*\*([^*]+)\*\*|\*([^*]+)\*)/y;
const ID_SYNTAX_RE = /^(.+)?\|(\d+)$/;

function resolveUserMention(state: StateInline, text: string, silent: boolean): Mention | null {
  const { ctx } = state.env as RenderEnv;
  // Wildcards are matched case-sensitively, before any user lookup, as in Zulip.
  if (CHANNEL_WILDCARDS.has(text)) return { kind: "channel_wildcard", name: text, silent };
  if (text === "topic") return { kind: "topic_wildcard", silent };
  const idSyntax = ID_SYNTAX_RE.exec(text);
  const user = idSyntax ? ctx.userById(Number(idSyntax[2])) : ctx.userByName(text);
  if (!user) return null;
  // Zulip treats @**name|id** naming someone else as not a mention at all.
  if (idSyntax?.[1] !== undefined && idSyntax[1] !== user.full_name) return null;
  return { kind: "user", id: user.id, name: user.full_name, silent: silent || user.is_active === false };
}

function mentionRule(state: StateInline, silentMode: boolean): boolean {
  if (state.src.charCodeAt(state.pos) !== 0x40 /* @ */ || !mayStartAt(state.src, state.pos)) return false;
  const m = matchAt(MENTION_RE, state);
  if (!m) return false;
  const silent = m[1] === "_";
  let mention: Mention | null;
  if (m[2] !== undefined) {
    mention = resolveUserMention(state, m[2], silent);
  } else {
    const group = (state.env as RenderEnv).ctx.groupByName(m[3]!);
    mention = group && { kind: "group", id: group.id, name: group.name, silent: silent || group.deactivated === true };
  }
  // Unknown names stay literal text (and `**…**` may then still become bold).
  if (!mention) return false;
  if (!silentMode) state.push("zulip_mention", "span", 0).meta = mention;
  state.pos += m[0].length;
  return true;
}

function mentionHtml(mention: Mention): string {
  const silent = mention.silent ? " silent" : "";
  const at = mention.silent ? "" : "@";
  switch (mention.kind) {
    case "user":
      return element("span", { class: `user-mention${silent}`, "data-user-id": String(mention.id) }, at + mention.name);
    case "channel_wildcard":
      return element("span", { class: `user-mention channel-wildcard-mention${silent}`, "data-user-id": "*" }, at + mention.name);
    case "topic_wildcard":
      return element("span", { class: `topic-mention${silent}` }, at + "topic");
    case "group":
      return element("span", { class: `user-group-mention${silent}`, "data-user-group-id": String(mention.id) }, at + mention.name);
  }
}

/** Quoting someone must not notify the people they mentioned: Zulip silences mentions inside quotes. */
function silenceQuotedMentions(state: StateCore): void {
  let quoteDepth = 0;
  for (const token of state.tokens) {
    if (token.type === "blockquote_open") quoteDepth++;
    else if (token.type === "blockquote_close") quoteDepth--;
    else if (quoteDepth > 0 && token.type === "inline") {
      for (const child of token.children ?? []) if (child.type === "zulip_mention") (child.meta as Mention).silent = true;
    }
  }
}

export function mentionsPlugin(md: MarkdownIt): void {
  // Before emphasis, which would otherwise take the `**` of @**Name** for bold.
  md.inline.ruler.before("emphasis", "zulip_mention", mentionRule);
  md.core.ruler.push("zulip_quoted_mentions", silenceQuotedMentions);
  md.renderer.rules.zulip_mention = (tokens: Token[], idx: number) => mentionHtml(tokens[idx]!.meta as Mention);
}
