// Reading messages: GET /messages (anchors, ranges, narrows, search), GET /messages/{id},
// GET /messages/matches_narrow, and who may read which message.
import type { App } from "../context";
import type { ChannelRow, MessageRow, RealmRow, UserRow } from "../db/schema";
import { anchorNotAtEnd, incompatibleParameters, invalidAnchor, invalidMessage, missingArgument, notLoggedIn, tooManyMessages } from "../domain/errors";
import { FLAG } from "../domain/message-flags";
import { dmKeyMembers, type MessageViewOptions } from "../domain/messages";
import {
  applyWith,
  compileNarrow,
  parseNarrow,
  SPECTATOR_OPERATORS,
  type CompiledNarrow,
  type NarrowChannel,
  type NarrowContext,
  type NarrowTerm,
} from "../domain/narrow";
import { spectatorsAllowed } from "../domain/realm-access";
import { isGuest } from "../domain/roles";
import * as channelStore from "../store/channels";
import * as store from "../store/messages";
import { flagsOf } from "../store/message-flags";
import * as narrowStore from "../store/narrow";
import type { NarrowRow } from "../store/narrow";
import { isSubscribed, mutedChannelRecipientIds } from "../store/subscriptions";
import { listUserTopics } from "../store/topics";
import { findUserByEmail, findUserById } from "../store/users";
import { catchUp } from "./catch-up";
import { catchUpSearch } from "./search-index";
import { messageObjects, viewOptions } from "./message-objects";
import { p, t, type Args } from "../domain/params";

export const MAX_MESSAGES_PER_FETCH = 5000;
/** Zulip's anchor for `newest`: larger than any message id. */
export const LARGER_THAN_MAX_MESSAGE_ID = 10000000000000000;

// ---- Who may read a message ----

/** Whether the viewer may read a channel's messages they never received (Zulip's can_access_stream_history). */
export async function canReadChannelHistory(app: App, viewer: UserRow, c: ChannelRow): Promise<boolean> {
  if (!c.inviteOnly && (!isGuest(viewer.role) || c.isWebPublic)) return true;
  return c.historyPublicToSubscribers && (await isSubscribed(app.db, viewer.id, c.id));
}

export interface MessageAccess {
  message: MessageRow;
  /** The viewer's flags, or undefined when they never received it (a historical message). */
  flags: number | undefined;
  channel: ChannelRow | null;
}

/** The message if the viewer may read it (received it, or may read its channel's history); else `Invalid message(s)`. */
export async function accessMessage(app: App, realm: RealmRow, viewer: UserRow | null, id: number): Promise<MessageAccess> {
  const m = await store.findMessage(app.db, id);
  if (!m || m.realmId !== realm.id) throw invalidMessage();
  const channel = (await channelStore.findChannelByRecipient(app.db, m.recipientId)) ?? null;
  if (!viewer) {
    if (!channel?.isWebPublic || !spectatorsAllowed(realm)) throw invalidMessage();
    return { message: m, flags: undefined, channel };
  }
  await catchUp(app, viewer);
  const own = await flagsOf(app.db, viewer.id, id);
  if (own) return { message: m, flags: own.flags, channel };
  if (channel && channel.historyPublicToSubscribers && (await canReadChannelHistory(app, viewer, channel))) return { message: m, flags: undefined, channel };
  throw invalidMessage();
}

const shownFlags = (flags: number | undefined, spectator: boolean) => (spectator || flags === undefined || flags < 0 ? FLAG.read | FLAG.historical : flags);

// ---- Narrow lookups ----

async function narrowContext(app: App, realm: RealmRow, viewer: UserRow | null): Promise<NarrowContext> {
  await catchUp(app, viewer); // narrows read the viewer's rows
  // Every fetch reads the realm's channels: kept until a change that may touch them (db/read-cache.ts).
  const { channels, byId } = await app.reads.get(`channels:${realm.id}`, async () => {
    const channels = await channelStore.listChannels(app.db, realm.id);
    return { channels, byId: new Map(channels.map((c) => [c.id, c])) };
  });
  const asNarrow = (c: ChannelRow): NarrowChannel => ({ id: c.id, recipientId: c.recipientId, isWebPublic: c.isWebPublic });
  let topics: Awaited<ReturnType<NarrowContext["topicPolicies"]>> | null = null;
  return {
    viewerId: viewer?.id ?? null,
    async channel(operand) {
      const c = typeof operand === "number" ? byId.get(operand) : await channelStore.findChannelByName(app.db, realm.id, String(operand));
      return c ? asNarrow(c) : null;
    },
    canReadHistory: async (c) => !!viewer && (await canReadChannelHistory(app, viewer, byId.get(c.id)!)),
    canReadPublicHistory: !!viewer && !isGuest(viewer.role),
    publicChannelRecipients: () => channels.filter((c) => !c.inviteOnly).map((c) => c.recipientId),
    webPublicChannelRecipients: () => (spectatorsAllowed(realm) ? channels.filter((c) => c.isWebPublic).map((c) => c.recipientId) : []),
    async user(operand) {
      const u = typeof operand === "number" ? await findUserById(app.db, operand) : await findUserByEmail(app.db, realm.id, String(operand));
      return u && u.realmId === realm.id ? { id: u.id } : null;
    },
    dmRecipient: async (ids) => (await store.findDmRecipient(app.db, ids))?.id ?? null,
    dmRecipientsWith: async (userId, groupsOnly) => await store.dmRecipientsWith(app.db, viewer!.id, userId, groupsOnly),
    mutedChannelRecipients: async () => await mutedChannelRecipientIds(app.db, viewer!.id),
    topicPolicies: async () =>
      (topics ??= (await listUserTopics(app.db, viewer!.id))
        .filter((t) => byId.has(t.channelId))
        .map((t) => ({ recipientId: byId.get(t.channelId)!.recipientId, topic: t.topic, policy: t.visibilityPolicy }))),
  };
}

/** The conversation a viewer-visible message belongs to (for the `with` operator). */
async function conversationOf(app: App, realm: RealmRow, viewer: UserRow | null, id: number) {
  let a: MessageAccess;
  try {
    a = await accessMessage(app, realm, viewer, id);
  } catch {
    return null;
  }
  if (a.channel) return { channelId: a.channel.id, topic: a.message.topic };
  const key = (await store.findRecipient(app.db, a.message.recipientId))?.dmKey ?? "";
  return { dmUserIds: dmKeyMembers(key).filter((u) => u !== viewer?.id) };
}

/** Parses, rewrites `with`, and checks what a spectator may ask; returns the terms. */
async function narrowTerms(app: App, realm: RealmRow, viewer: UserRow | null, narrow: unknown): Promise<NarrowTerm[]> {
  let terms = await applyWith(parseNarrow(narrow ?? []), async (id) => await conversationOf(app, realm, viewer, id));
  if (!viewer) {
    // Spectators name web-public channels explicitly (Zulip), and use only spectator operators.
    terms = terms.filter((t) => !(t.operator === "in" && t.operand === "home" && !t.negated));
    const webPublic = terms.some((t) => (t.operator === "channels" || t.operator === "streams") && t.operand === "web-public" && !t.negated);
    if (!spectatorsAllowed(realm) || !webPublic || terms.some((t) => !SPECTATOR_OPERATORS.has(t.operator))) throw notLoggedIn();
  }
  if (terms.some((t) => t.operator === "search")) await catchUpSearch(app);
  return terms;
}

// ---- The fetch ----

/** A narrow: a JSON list of {operator, operand, negated} objects or [operator, operand] pairs (checked by domain/narrow.ts). */
export const narrowParam = () => p.json(t.any());

export const fetchParams = {
  anchor: p.str().optional(),
  include_anchor: p.bool().optional(),
  num_before: p.int({ min: 0 }).optional(),
  num_after: p.int({ min: 0 }).optional(),
  narrow: narrowParam().optional(() => []),
  client_gravatar: p.bool().optional(true),
  apply_markdown: p.bool().optional(true),
  use_first_unread_anchor: p.bool().optional(),
  message_ids: p.json(t.list(t.int({ min: 0 }), { max: MAX_MESSAGES_PER_FETCH, unique: true })).optional(),
  allow_empty_topic_name: p.bool().optional(false),
  anchor_date: p.str().optional(),
  exclude_thread_replies: p.bool().optional(false),
};

export type FetchArgs = Args<typeof fetchParams>;

async function parseAnchor(app: App, a: FetchArgs): Promise<number | "first_unread"> {
  if (a.use_first_unread_anchor) return "first_unread";
  if (a.anchor === undefined) throw missingArgument("anchor");
  switch (a.anchor) {
    case "newest":
      return LARGER_THAN_MAX_MESSAGE_ID;
    case "oldest":
      return 0;
    case "first_unread":
      return "first_unread";
    case "date": {
      if (a.anchor_date === undefined) throw missingArgument("anchor_date");
      const t = parseAnchorDate(a.anchor_date);
      if (t === null) throw invalidAnchor();
      const id = await channelStore.firstMessageIdSince(app.db, t);
      return id > (await store.maxMessageId(app.db)) ? LARGER_THAN_MAX_MESSAGE_ID : id;
    }
  }
  if (!/^-?\d+$/.test(a.anchor)) throw invalidAnchor();
  const n = Number(a.anchor);
  return n < 0 ? 0 : Math.min(n, LARGER_THAN_MAX_MESSAGE_ID);
}

/** ISO 8601 date (midnight UTC) or date-time; without a zone, UTC. */
export function parseAnchorDate(s: string): number | null {
  const m = /^(\d{4}-\d{2}-\d{2})(?:[T ](\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?)(Z|[+-]\d{2}:?\d{2})?)?$/.exec(s.trim());
  if (!m) return null;
  const iso = `${m[1]}T${m[2] ?? "00:00:00"}${m[3] ?? "Z"}`;
  const t = Date.parse(iso);
  return Number.isNaN(t) ? null : Math.floor(t / 1000);
}

/** GET /messages. */
export async function getMessages(app: App, realm: RealmRow, viewer: UserRow | null, a: FetchArgs) {
  const rangeParams = (["num_before", "num_after", "anchor", "include_anchor", "use_first_unread_anchor"] as const).filter((k) => a[k] !== undefined);
  if (a.message_ids !== undefined && rangeParams.length)
    throw incompatibleParameters(["num_before", "num_after", "anchor", "message_ids", "include_anchor", "use_first_unread_anchor"]);
  if (a.message_ids === undefined) {
    if (a.num_before === undefined) throw missingArgument("num_before");
    if (a.num_after === undefined) throw missingArgument("num_after");
  }
  const numBefore = a.num_before ?? 0;
  let numAfter = a.num_after ?? 0;
  const includeAnchor = a.include_anchor ?? true;
  const anchorValue = a.message_ids === undefined ? await parseAnchor(app, a) : 0;
  const requested = a.message_ids !== undefined ? a.message_ids.length : numBefore + numAfter;
  if (requested > MAX_MESSAGES_PER_FETCH) throw tooManyMessages(MAX_MESSAGES_PER_FETCH);
  if (numBefore > 0 && numAfter > 0 && !includeAnchor) throw anchorNotAtEnd();
  const terms = await narrowTerms(app, realm, viewer, a.narrow);
  const ctx = await narrowContext(app, realm, viewer);
  const compiled = await compileNarrow(terms, ctx, { realmId: realm.id });
  const view = viewOptions(realm, { ...a, client_gravatar: viewer ? a.client_gravatar : false });

  if (a.message_ids !== undefined) {
    const rows = await narrowStore.rowsWithIds(app.db, compiled, a.message_ids);
    return {
      messages: await present(app, realm, rows, view, compiled, !viewer),
      found_anchor: false,
      found_oldest: false,
      found_newest: false,
      history_limited: false,
    };
  }

  const anchor = anchorValue === "first_unread" ? await firstUnread(app, realm, viewer, terms, ctx) : anchorValue;
  const r = await fetchRange(app, compiled, anchor, numBefore, numAfter, includeAnchor);
  return {
    anchor,
    found_anchor: r.foundAnchor,
    found_oldest: r.foundOldest,
    found_newest: r.foundNewest,
    history_limited: false,
    messages: await present(app, realm, r.rows, view, compiled, !viewer),
  };
}

/** The oldest unread message matching the narrow (outside muted conversations), else `newest`. */
async function firstUnread(app: App, realm: RealmRow, viewer: UserRow | null, terms: NarrowTerm[], ctx: NarrowContext): Promise<number> {
  if (!viewer) return LARGER_THAN_MAX_MESSAGE_ID;
  const channelTerm = terms.some((t) => (t.operator === "channel" || t.operator === "stream") && !t.negated);
  const unreadTerms: NarrowTerm[] = channelTerm ? terms : [...terms, { operator: "in", operand: "home", negated: false }];
  const u = await compileNarrow(unreadTerms, ctx, { realmId: realm.id, forceUserMessages: true });
  return (await narrowStore.firstUnreadId(app.db, u)) ?? LARGER_THAN_MAX_MESSAGE_ID;
}

/**
 * Zulip's range query: up to num_before messages below the anchor and num_after above it (at most two
 * indexed queries, each with one row of headroom), then trimmed; says whether the ends were reached.
 */
async function fetchRange(app: App, c: CompiledNarrow, anchor: number, numBefore: number, numAfter: number, includeAnchor: boolean) {
  const toLeft = anchor === 0;
  const toRight = anchor >= LARGER_THAN_MAX_MESSAGE_ID;
  if (toRight) numAfter = 0;
  const needBefore = !toLeft && numBefore > 0;
  const needAfter = !toRight && numAfter > 0;
  const before = async (bound: number | null, limit: number) => await narrowStore.rowsBefore(app.db, c, bound, limit);
  const after = async (bound: number | null, limit: number) => await narrowStore.rowsAfter(app.db, c, bound, limit);
  let rows: NarrowRow[] = [];
  if (needBefore && needAfter) rows = [...(await before(anchor - 1, numBefore)), ...(await after(anchor, numAfter + 1))];
  else if (needBefore) rows = await before(toRight ? null : anchor - (includeAnchor ? 0 : 1), numBefore + (toRight ? 0 : includeAnchor ? 1 : 0));
  else if (needAfter) rows = await after(toLeft ? null : anchor + (includeAnchor ? 0 : 1), numAfter + (includeAnchor ? 1 : 0));
  else if (includeAnchor) rows = await narrowStore.rowsAt(app.db, c, anchor);
  let beforeRows = toRight ? rows : rows.filter((r) => r.id < anchor);
  const anchorRows = toRight ? [] : rows.filter((r) => r.id === anchor);
  let afterRows = toRight ? [] : rows.filter((r) => r.id > anchor);
  if (numBefore) beforeRows = beforeRows.slice(-numBefore);
  if (numAfter) afterRows = afterRows.slice(0, numAfter);
  return {
    rows: [...beforeRows, ...anchorRows, ...afterRows],
    foundAnchor: anchorRows.length === 1,
    foundOldest: toLeft || beforeRows.length < numBefore,
    foundNewest: toRight || afterRows.length < numAfter,
  };
}

/** Message objects for fetched rows, with search highlights when the narrow searched. */
async function present(app: App, realm: RealmRow, rows: NarrowRow[], view: MessageViewOptions, c: CompiledNarrow, spectator: boolean) {
  const flags = new Map(rows.map((r) => [r.id, shownFlags(r.flags, spectator)]));
  const messages = await store.listMessagesByIds(
    app.db,
    rows.map((r) => r.id),
  );
  const objects = await messageObjects(app, realm, messages, view, (id) => flags.get(id));
  if (c.search) {
    const hl = await store.highlightMatches(app.db, c.search.match, messages);
    for (const o of objects) Object.assign(o, hl.get(o.id as number));
  }
  return objects;
}

export const getMessageParams = {
  apply_markdown: p.bool().optional(true),
  allow_empty_topic_name: p.bool().optional(false),
};

/** GET /messages/{message_id}. */
export async function getMessage(app: App, realm: RealmRow, viewer: UserRow | null, id: number, a: Args<typeof getMessageParams>) {
  const access = await accessMessage(app, realm, viewer, id);
  const view = viewOptions(realm, { ...a, client_gravatar: false });
  const [message] = await messageObjects(app, realm, [access.message], view, () => shownFlags(access.flags, !viewer));
  return { raw_content: access.message.content, message };
}

/** GET /messages/matches_narrow: which of these received messages match, with their search highlights. */
export async function matchesNarrow(app: App, realm: RealmRow, viewer: UserRow, ids: number[], narrow: unknown) {
  const terms = await narrowTerms(app, realm, viewer, narrow);
  const c = await compileNarrow(terms, await narrowContext(app, realm, viewer), { realmId: realm.id, forceUserMessages: true });
  const rows = await narrowStore.rowsWithIds(app.db, c, ids);
  const messages = await store.listMessagesByIds(
    app.db,
    rows.map((r) => r.id),
  );
  const hl = c.search ? await store.highlightMatches(app.db, c.search.match, messages) : null;
  const out: Record<string, { match_content: string; match_subject: string }> = {};
  for (const m of messages) out[String(m.id)] = hl?.get(m.id) ?? { match_content: m.renderedContent, match_subject: store.escapeHtml(m.topic) };
  return { messages: out };
}

/** The viewer's own messages a narrow selects in a range, for POST /messages/flags/narrow. */
export async function narrowRange(
  app: App,
  realm: RealmRow,
  viewer: UserRow,
  a: { anchor: string; include_anchor: boolean; num_before: number; num_after: number; narrow: unknown },
) {
  if (a.num_before + a.num_after > MAX_MESSAGES_PER_FETCH) throw tooManyMessages(MAX_MESSAGES_PER_FETCH);
  if (a.num_before > 0 && a.num_after > 0 && !a.include_anchor) throw anchorNotAtEnd();
  const terms = await narrowTerms(app, realm, viewer, a.narrow);
  const ctx = await narrowContext(app, realm, viewer);
  const c = await compileNarrow(terms, ctx, { realmId: realm.id, forceUserMessages: true });
  const v = await parseAnchor(app, {
    anchor: a.anchor,
    narrow: [],
    client_gravatar: false,
    apply_markdown: false,
    allow_empty_topic_name: true,
    exclude_thread_replies: false,
  });
  const anchor = v === "first_unread" ? await firstUnread(app, realm, viewer, terms, ctx) : v;
  return await fetchRange(app, c, anchor, a.num_before, a.num_after, a.include_anchor);
}
