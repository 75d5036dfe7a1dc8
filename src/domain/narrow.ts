// A narrow (Zulip's search grammar) compiled to SQL: pure, with every lookup a callback, so it can be
// tested table-driven. The compiled query selects from `messages m` and, unless history is included,
// the viewer's `user_messages um`; the caller adds the id range, order and limit.
import { badNarrow } from "./errors";
import { FLAG, MENTION_MASK } from "./message-flags";
import { EMPTY_TOPIC_DISPLAY_NAME, RESOLVED_TOPIC_PREFIX } from "./messages";

export type Operand = string | number | number[];
export interface NarrowTerm {
  operator: string;
  operand: Operand;
  negated: boolean;
}

export interface NarrowChannel {
  id: number;
  recipientId: number;
  isWebPublic: boolean;
}

/** Lookups the compiler needs; the caller answers from the database. */
export interface NarrowContext {
  /** null: a spectator reading web-public channels. */
  viewerId: number | null;
  /** A channel of the realm by name or id, whatever the viewer's access (terms only ever remove messages). */
  channel(operand: string | number): Promise<NarrowChannel | null>;
  /** Whether the viewer may read this channel's whole history (not only what they received). */
  canReadHistory(c: NarrowChannel): Promise<boolean>;
  /** Whether the viewer may read every public channel's history (not a guest). */
  canReadPublicHistory: boolean;
  publicChannelRecipients(): number[];
  webPublicChannelRecipients(): number[];
  /** A user of the realm by email or id. */
  user(operand: string | number): Promise<{ id: number } | null>;
  /** The conversation of exactly these participants (the viewer included), if it exists. */
  dmRecipient(userIds: number[]): Promise<number | null>;
  /** Conversations of the viewer that include this user; `groupsOnly` leaves out one-to-one ones. */
  dmRecipientsWith(userId: number, groupsOnly: boolean): Promise<number[]>;
  /** The viewer's muted channels (recipient ids) and topic policies, for in:home, is:muted and is:followed. */
  mutedChannelRecipients(): Promise<number[]>;
  topicPolicies(): Promise<{ recipientId: number; topic: string; policy: number }[]>;
}

export interface CompiledNarrow {
  /** FROM clause: the driving table first (CROSS JOIN fixes SQLite's join order); it has no parameters. */
  from: string;
  where: string[];
  params: unknown[];
  /** The message id column of the driving table (range and order apply to it). */
  idCol: string;
  /** The viewer's flags; -1 where a message was not received (history). */
  flagsCol: string;
  /** Messages the viewer never received are included (Zulip's "historical" messages). */
  includeHistory: boolean;
  /** The combined search text, when the narrow searches. */
  search: SearchQuery | null;
}

export interface SearchQuery {
  /** An FTS5 MATCH expression; null when every word is a stop word (nothing matches). */
  match: string | null;
  /** Quoted phrases, also required literally (case-insensitive) in the content or topic. */
  phrases: string[];
}

const CHANNEL_OPS = new Set(["channel", "stream"]);
const CHANNELS_OPS = new Set(["channels", "streams"]);
const MAX_NARROW_TERMS = 100;
/** A direct-message narrow names its participants: as many as a direct message may have. */
const MAX_DM_OPERAND = 1000;
const DM_OPS = new Set(["dm", "pm-with", "pm_with"]);
/** Operators a spectator may use (Zulip's is_spectator_compatible). */
export const SPECTATOR_OPERATORS = new Set(["channel", "stream", "channels", "streams", "topic", "subject", "sender", "has", "search", "near", "id", "with"]);

/** Zulip's two narrow forms: {operator, operand, negated?} objects and [operator, operand] string pairs. */
export function parseNarrow(value: unknown): NarrowTerm[] {
  if (!Array.isArray(value)) throw badNarrow("narrow is not a list");
  // Each term becomes SQL to build and run: a bound keeps one request's query small.
  if (value.length > MAX_NARROW_TERMS) throw badNarrow(`narrow has too many terms (limit: ${MAX_NARROW_TERMS})`);
  return value.map((elem, i) => {
    if (Array.isArray(elem)) {
      if (elem.length !== 2 || elem.some((x) => typeof x !== "string")) throw invalidElement(i, "element is not a string pair");
      return { operator: elem[0], operand: elem[1], negated: false };
    }
    if (typeof elem !== "object" || elem === null) throw invalidElement(i, "dict or list required");
    const e = elem as Record<string, unknown>;
    if (e.operator === undefined || e.operator === null) throw invalidElement(i, "operator is missing");
    if (e.operand === undefined || e.operand === null) throw invalidElement(i, "operand is missing");
    if (typeof e.operator !== "string") throw invalidElement(i, "operator is not a string");
    if (e.negated !== undefined && typeof e.negated !== "boolean") throw invalidElement(i, "negated is not a boolean");
    const op = e.operator;
    const operand = e.operand;
    const ok =
      typeof operand === "string" ||
      (Number.isInteger(operand) && ["channel", "stream", "id", "thread", "sender", "group-pm-with", "dm-including", "with", "near"].includes(op)) ||
      (Array.isArray(operand) && DM_OPS.has(op) && operand.length <= MAX_DM_OPERAND && operand.every((x) => Number.isInteger(x)));
    if (!ok) throw invalidElement(i, "operand is not a string");
    if (op === "search" && typeof operand === "string" && !operand.trim()) throw invalidElement(i, "operand cannot be blank");
    return { operator: op, operand: operand as Operand, negated: e.negated === true };
  });
}

const invalidElement = (i: number, why: string) => badNarrow(`narrow[${i}]: ${why}`);

/** Zulip rewrites the empty topic's display name back to the empty topic in narrows. */
export const normalizeTopicOperand = (t: string) => (t === EMPTY_TOPIC_DISPLAY_NAME ? "" : t);

/** Postgres' English stop words, which Zulip's full-text search ignores (also register's `stop_words`). */
export const STOP_WORDS = `a about above after again against all am an and any are as at be because been before being below between both
but by can did do does doing don down during each few for from further had has have having he her here hers herself him himself his
how i if in into is it its itself just me more most my myself no nor not now of off on once only or other our ours ourselves out over
own s same she should so some such t than that the their theirs them themselves then there these they this those through to too under
until up very was we were what when where which while who whom why will with you your yours yourself yourselves`.split(/\s+/);
const STOP = new Set(STOP_WORDS);

/** Words of a search string as the index tokenizes them (letters and digits, lowercased). */
const words = (s: string) => s.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];

/**
 * Zulip's search semantics: every word must match (stemmed, stop words ignored); a "quoted phrase"
 * must match as a phrase. Each word becomes a quoted FTS5 string, so no operand can inject syntax.
 */
export function searchQuery(text: string): SearchQuery {
  const parts: string[] = [];
  const phrases: string[] = [];
  for (const m of text.matchAll(/"([^"]+)"|(\S+)/g)) {
    if (m[1] !== undefined) {
      const w = words(m[1]);
      if (w.length) parts.push(`"${w.join(" ")}"`);
      phrases.push(m[1]);
    } else for (const w of words(m[2]!)) if (!STOP.has(w)) parts.push(`"${w}"`);
  }
  return { match: parts.length ? parts.join(" AND ") : null, phrases };
}

/** Terms after `with`: the conversation of that message replaces channel, topic and dm terms. */
export async function applyWith(
  terms: NarrowTerm[],
  messageConversation: (id: number) => Promise<{ channelId: number; topic: string } | { dmUserIds: number[] } | null>,
): Promise<NarrowTerm[]> {
  const withs = terms.filter((t) => t.operator === "with");
  if (!withs.length) return terms;
  if (withs.length > 1) throw badNarrow("Duplicate 'with' operators.");
  const rest = terms.filter((t) => t.operator !== "with");
  const id = Number(withs[0]!.operand);
  if (!Number.isInteger(id)) throw badNarrow("Invalid 'with' operator");
  const conv = await messageConversation(id);
  if (!conv) return rest;
  const others = rest.filter((t) => !["stream", "channel", "topic", "subject", "dm", "pm-with"].includes(t.operator));
  if ("channelId" in conv)
    return [{ operator: "channel", operand: conv.channelId, negated: false }, { operator: "topic", operand: conv.topic, negated: false }, ...others];
  return [{ operator: "dm", operand: conv.dmUserIds, negated: false }, ...others];
}

/** Whether Zulip would include messages the viewer never received: a channel whose history they may read. */
async function includesHistory(terms: NarrowTerm[], ctx: NarrowContext): Promise<boolean> {
  if (ctx.viewerId === null) return true;
  let include = false;
  for (const t of terms) {
    if (t.negated) continue;
    if (CHANNEL_OPS.has(t.operator)) {
      const c = await ctx.channel(t.operand as string | number);
      include = !!c && (await ctx.canReadHistory(c));
    } else if (CHANNELS_OPS.has(t.operator) && t.operand === "public" && ctx.canReadPublicHistory) include = true;
  }
  // Flags live on user_messages: an is: term never matches a message the viewer did not receive.
  if (terms.some((t) => t.operator === "is")) include = false;
  return include;
}

const inList = (col: string, ids: number[]) => (ids.length ? `${col} IN (${ids.join(",")})` : "false");

/**
 * Compiles terms (after applyWith) for the viewer. `forceUserMessages` compiles against user_messages
 * even where history could be included (the first_unread anchor needs the unread flag).
 */
export async function compileNarrow(
  terms: NarrowTerm[],
  ctx: NarrowContext,
  o: { realmId: number; forceUserMessages?: boolean } = { realmId: 0 },
): Promise<CompiledNarrow> {
  const spectator = ctx.viewerId === null;
  const includeHistory = !o.forceUserMessages && (await includesHistory(terms, ctx));
  const where: string[] = [];
  const params: unknown[] = [];
  const searches: string[] = [];
  let channelNarrow = false;
  let dmNarrow = false;
  const both = () => {
    if (channelNarrow && dmNarrow) throw badNarrow("No message can be both a channel message and direct message");
  };
  const add = (t: NarrowTerm, cond: string, ...p: unknown[]) => {
    where.push(t.negated ? `NOT (${cond})` : cond);
    params.push(...p);
  };
  const flag = (mask: number, set: boolean) => (set ? `(um.flags & ${mask}) != 0` : `(um.flags & ${mask}) = 0`);
  const userOnly = (t: NarrowTerm) => {
    if (spectator) throw badNarrow(`unknown operator ${t.operator}`);
  };
  for (const t of terms) {
    const op = t.operator;
    if (CHANNEL_OPS.has(op)) {
      channelNarrow = true;
      both();
      const c = await ctx.channel(t.operand as string | number);
      if (!c) throw badNarrow(`unknown channel ${t.operand}`);
      if (spectator && !c.isWebPublic) throw badNarrow(`unknown web-public channel ${t.operand}`);
      add(t, "m.recipient_id = ?", c.recipientId);
    } else if (CHANNELS_OPS.has(op)) {
      channelNarrow = true;
      both();
      if (t.operand === "public") add(t, inList("m.recipient_id", ctx.publicChannelRecipients()));
      else if (t.operand === "web-public") add(t, inList("m.recipient_id", ctx.webPublicChannelRecipients()));
      else throw badNarrow(`unknown channels operand ${t.operand}`);
    } else if (op === "topic" || op === "subject") {
      channelNarrow = true;
      both();
      add(t, "m.topic = ?", normalizeTopicOperand(String(t.operand)));
    } else if (op === "sender") {
      const u = await ctx.user(t.operand as string | number);
      if (!u) throw badNarrow(`unknown user ${t.operand}`);
      add(t, "m.sender_id = ?", u.id);
    } else if (DM_OPS.has(op)) {
      userOnly(t);
      dmNarrow = true;
      both();
      const ids: number[] = [];
      for (const x of Array.isArray(t.operand)
        ? t.operand
        : String(t.operand)
            .split(",")
            .map((s) => s.trim())
            .filter(Boolean)) {
        const u = await ctx.user(x);
        if (!u) throw badNarrow(`unknown user in ${t.operand}`);
        ids.push(u.id);
      }
      if (!ids.length) throw badNarrow(`unknown user in ${t.operand}`);
      const r = await ctx.dmRecipient([...new Set([...ids, ctx.viewerId!])]);
      add(t, r === null ? "false" : "m.recipient_id = ?", ...(r === null ? [] : [r]));
    } else if (op === "dm-including" || op === "group-pm-with" || op === "group_pm_with") {
      userOnly(t);
      dmNarrow = true;
      both();
      const u = await ctx.user(t.operand as string | number);
      if (!u) throw badNarrow(`unknown user ${t.operand}`);
      if (op === "dm-including" && u.id === ctx.viewerId) add(t, flag(FLAG.is_private, true));
      else add(t, inList("m.recipient_id", await ctx.dmRecipientsWith(u.id, op !== "dm-including")));
    } else if (op === "is") {
      userOnly(t);
      switch (t.operand) {
        case "dm":
        case "private":
          dmNarrow = true;
          both();
          add(t, flag(FLAG.is_private, true));
          break;
        case "starred":
          add(t, flag(FLAG.starred, true));
          break;
        case "unread":
          add(t, flag(FLAG.read, false));
          break;
        case "mentioned":
          add(t, flag(MENTION_MASK, true));
          break;
        case "alerted":
          add(t, flag(FLAG.has_alert_word, true));
          break;
        case "resolved":
          add(t, "m.topic LIKE ?", `${RESOLVED_TOPIC_PREFIX}%`);
          break;
        case "followed": {
          const followed = (await ctx.topicPolicies()).filter((p) => p.policy === 3);
          add(t, topicIn(followed), ...followed.flatMap((p) => [p.recipientId, p.topic]));
          break;
        }
        case "muted": {
          const { cond, p } = await mutedCondition(ctx);
          add(t, cond, ...p);
          break;
        }
        default:
          throw badNarrow(`unknown 'is' operand ${t.operand}`);
      }
    } else if (op === "in") {
      userOnly(t);
      if (t.operand === "home") {
        const { cond, p } = await mutedCondition(ctx);
        where.push(t.negated ? cond : `NOT (${cond})`);
        params.push(...p);
      } else if (t.operand !== "all") throw badNarrow(`unknown 'in' operand ${t.operand}`);
    } else if (op === "has") {
      if (t.operand === "reaction") add(t, "EXISTS (SELECT 1 FROM reactions r WHERE r.message_id = m.id)");
      else if (t.operand === "link" || t.operand === "image" || t.operand === "attachment") add(t, `m.has_${t.operand} = true`);
      else throw badNarrow(`unknown 'has' operand ${t.operand}`);
    } else if (op === "id" || op === "thread") {
      // A thread is its root message and the replies to it. No confab message is a reply (nothing
      // creates one), so a thread is its root alone, and exclude_thread_replies has nothing to omit.
      if (!/^\d+$/.test(String(t.operand))) throw badNarrow("Invalid message ID");
      add(t, "m.id = ?", Number(t.operand));
    } else if (op === "near") {
      // Only positions the client's view; it filters nothing (as in Zulip).
    } else if (op === "search") {
      // Positive searches combine into one query that drives the fetch; a negated one excludes its matches.
      if (!t.negated) searches.push(String(t.operand));
      else {
        const q = searchQuery(String(t.operand));
        if (q.match !== null) add({ ...t, negated: false }, FTS_EXCLUDES, q.match);
      }
    } else throw badNarrow(`unknown operator ${op}`);
  }
  if (spectator) where.push(inList("m.recipient_id", ctx.webPublicChannelRecipients()));
  const search = searches.length ? searchQuery(searches.join(" ")) : null;
  return assemble(
    where,
    params,
    search,
    includeHistory,
    spectator,
    ctx.viewerId,
    o.realmId,
    channelNarrow || dmNarrow || terms.some((t) => t.operator === "sender" && !t.negated),
  );
}

function topicIn(list: { recipientId: number; topic: string }[]): string {
  return list.length ? `(${list.map(() => "(m.recipient_id = ? AND m.topic = ?)").join(" OR ")})` : "false";
}

/** Messages Zulip hides from combined feeds: muted channels (except unmuted or followed topics) and muted topics. */
async function mutedCondition(ctx: NarrowContext): Promise<{ cond: string; p: unknown[] }> {
  const channels = await ctx.mutedChannelRecipients();
  const policies = await ctx.topicPolicies();
  const muted = policies.filter((x) => x.policy === 1);
  const visible = policies.filter((x) => x.policy === 2 || x.policy === 3);
  const inMutedChannel = channels.length ? `(${inList("m.recipient_id", channels)} AND NOT ${topicIn(visible)})` : "false";
  return {
    cond: `(${inMutedChannel} OR ${topicIn(muted)})`,
    p: [...(channels.length ? visible.flatMap((x) => [x.recipientId, x.topic]) : []), ...muted.flatMap((x) => [x.recipientId, x.topic])],
  };
}

// The SQLite full-text pieces of a compiled narrow, which forPostgres replaces.
const FTS_DRIVES = "messages_fts CROSS JOIN ";
const FTS_ON = " ON m.id = messages_fts.rowid";
const FTS_ID = "messages_fts.rowid";
const FTS_MATCHES = "messages_fts MATCH ?";
const FTS_EXCLUDES = "NOT (m.id IN (SELECT rowid FROM messages_fts WHERE messages_fts MATCH ?))";
const PHRASE = "(m.content LIKE ? ESCAPE '\\' OR m.topic LIKE ? ESCAPE '\\')";

function assemble(
  where: string[],
  params: unknown[],
  search: SearchQuery | null,
  includeHistory: boolean,
  spectator: boolean,
  viewerId: number | null,
  realmId: number,
  messageSelective: boolean,
): CompiledNarrow {
  const pre: string[] = [];
  const preParams: unknown[] = [];
  // The driving table comes first; CROSS JOIN keeps SQLite from reordering. Search walks the
  // full-text index in id order; a channel, conversation or sender term walks those messages' index;
  // anything else walks the viewer's own rows. The viewer id (an integer from the database) is inlined
  // in the FROM clause so that every `?` belongs to `where`, in order.
  const fts = search ? FTS_DRIVES : "";
  const mOn = search ? FTS_ON : "";
  let from: string;
  let idCol = search ? FTS_ID : "m.id";
  let flagsCol = "um.flags";
  if (spectator) {
    from = `${fts}messages m${mOn}`;
    flagsCol = "-1";
  } else if (includeHistory) {
    from = `${fts}messages m${mOn} LEFT JOIN user_messages um ON um.user_id = ${viewerId} AND um.message_id = m.id`;
    flagsCol = "COALESCE(um.flags, -1)";
  } else if (messageSelective || search) {
    from = `${fts}messages m${mOn} CROSS JOIN user_messages um ON um.user_id = ${viewerId} AND um.message_id = m.id`;
  } else {
    from = "user_messages um CROSS JOIN messages m ON m.id = um.message_id";
    pre.push("um.user_id = ?");
    preParams.push(viewerId);
    idCol = "um.message_id";
  }
  if (search) {
    pre.unshift(search.match === null ? "false" : FTS_MATCHES);
    if (search.match !== null) preParams.unshift(search.match);
    for (const ph of search.phrases) {
      where.push(PHRASE);
      const like = `%${ph.replace(/[\\%_]/g, (c) => "\\" + c)}%`;
      params.push(like, like);
    }
  }
  if (spectator || includeHistory) {
    pre.push("m.realm_id = ?");
    preParams.push(realmId);
  }
  return { from, where: [...pre, ...where], params: [...preParams, ...params], idCol, flagsCol, includeHistory: includeHistory || spectator, search };
}

/**
 * A search's FTS5 expression (`searchQuery`: quoted words and phrases joined by AND) as PostgreSQL's
 * tsquery text: a phrase's words follow each other (`<->`), the parts are all required (`&`). The
 * words are letters and digits only, so nothing in them is tsquery syntax.
 */
export const tsqueryOf = (match: string): string => [...match.matchAll(/"([^"]*)"/g)].map((m) => m[1]!.split(" ").join(" <-> ")).join(" & ");

/**
 * The compiled narrow for PostgreSQL (store/narrow.ts asks for it on a PostgreSQL Db): the joins
 * without SQLite's order hint, search through the messages' tsvector (docs/scaling.md, section 5), a
 * phrase's LIKE case-insensitive on the content (ILIKE; SQLite's LIKE already is, the topic's citext too).
 */
export function forPostgres(c: CompiledNarrow): CompiledNarrow {
  const params = [...c.params];
  let at = 0;
  const where = c.where.map((w) => {
    const here = at;
    at += w.split("?").length - 1;
    if (w === FTS_MATCHES || w === FTS_EXCLUDES) {
      params[here] = tsqueryOf(String(params[here]));
      return w === FTS_MATCHES ? "m.search_tsv @@ to_tsquery('english', ?)" : "NOT COALESCE(m.search_tsv @@ to_tsquery('english', ?), false)";
    }
    return w === PHRASE ? "(m.content ILIKE ? ESCAPE '\\' OR m.topic LIKE ? ESCAPE '\\')" : w;
  });
  const from = c.from.replace(`${FTS_DRIVES}messages m${FTS_ON}`, "messages m").replaceAll("CROSS JOIN ", "JOIN ");
  return { ...c, from, where, params, idCol: c.idCol === FTS_ID ? "m.id" : c.idCol };
}
