// Messages, their recipients and the search index. The send path runs here on every message, so its
// statements are plain SQL that bun:sqlite compiles once and caches.
import { eq, sql } from "drizzle-orm";
import { sqliteOf, type Db } from "../db/client";
import { idsValue, inIdsPlaceholder, idsTable } from "../db/in-ids";
import { preparedPerDb } from "../db/prepared";
import { type messages, type users, type MessageRow, type RecipientRow, type SubmessageRow } from "../db/schema";
import { engineOf, tables } from "../db/engine";
import { first, run } from "../db/query";
import { searchDocument } from "../db/dialect";
import { raw } from "../db/raw";
import { dmKey } from "../domain/messages";
import { listUsersByIds } from "./users";

export interface NewMessage {
  realmId: number;
  senderId: number;
  recipientId: number;
  topic: string;
  content: string;
  renderedContent: string;
  dateSent: number;
  client: string;
  hasLink: boolean;
  hasImage: boolean;
  hasAttachment: boolean;
  isMeMessage: boolean;
}

export async function insertMessage(db: Db, m: NewMessage): Promise<number> {
  const r = (await raw(db).get<{ id: number }>(
    `INSERT INTO messages (realm_id, sender_id, recipient_id, topic, content, rendered_content, date_sent, client,
         has_link, has_image, has_attachment, is_me_message) VALUES (?,?,?,?,?,?,?,?,?,?,?,?) RETURNING id`,
    m.realmId,
    m.senderId,
    m.recipientId,
    m.topic,
    m.content,
    m.renderedContent,
    m.dateSent,
    m.client,
    m.hasLink,
    m.hasImage,
    m.hasAttachment,
    m.isMeMessage,
  ))!;
  return r.id;
}

/**
 * One row per recipient. One prepared single-row INSERT per row: with bun:sqlite this is several times
 * faster than a multi-row VALUES list (binding hundreds of parameters costs more than the statement).
 */
export async function insertUserMessages(db: Db, messageId: number, rows: Iterable<readonly [userId: number, flags: number]>) {
  const insert = raw(db).batch("INSERT INTO user_messages (user_id, message_id, flags) VALUES (?, ?, ?)");
  for (const [userId, flags] of rows) insert.add(userId, messageId, flags);
  await insert.done();
}

// ---- The full-text index ----
// A send does not index its message: new messages are indexed in batches (actions/search-index.ts),
// before any search and every moment in between. Messages newer than the newest indexed one are the
// ones waiting; their edits need no indexing (the batch reads their current text). SQLite's index is
// an FTS5 table; PostgreSQL's the messages' `search_tsv` column (docs/scaling.md, section 5), the
// topic and visible text as `to_tsvector('english', …)` of db/dialect.ts's searchDocument.

/** The newest message in the full-text index (FTS5's docsize table has one row per indexed message). */
const indexedThrough = async (db: Db): Promise<number> =>
  (await raw(db).get<{ id: number }>(
    engineOf(db) === "postgres"
      ? "SELECT COALESCE((SELECT id FROM messages WHERE search_tsv IS NOT NULL ORDER BY id DESC LIMIT 1), 0) AS id"
      : "SELECT COALESCE(MAX(id), 0) AS id FROM messages_fts_docsize",
  ))!.id;

/** Replaces an edited or moved message's topic and visible text in the full-text index. */
export async function reindexMessage(db: Db, id: number, topic: string, text: string) {
  if (id > (await indexedThrough(db))) return; // still waiting for its batch
  await unindexMessages(db, [id]);
  await indexMessages(db, [{ id, topic, text }]);
}

/** Up to `limit` messages waiting to be indexed, oldest first. */
export const unindexedMessages = async (db: Db, limit: number) =>
  raw(db).all<{ id: number; topic: string; html: string }>(
    "SELECT id, topic, rendered_content AS html FROM messages WHERE id > ? ORDER BY id LIMIT ?",
    await indexedThrough(db),
    limit,
  );

/** SQLite connections whose FTS5 index was written since the indexer last asked (a merge may be due). */
const written = new WeakSet<object>();

/** Whether the index was written since the last call: segments were added or changed, and merging may be due. */
export function takeSearchIndexWritten(db: Db): boolean {
  const had = written.has(sqliteOf(db));
  written.delete(sqliteOf(db));
  return had;
}

export async function indexMessages(db: Db, rows: { id: number; topic: string; text: string }[]) {
  const insert = raw(db).batch(
    engineOf(db) === "postgres"
      ? "UPDATE messages SET search_tsv = to_tsvector('english', CAST(?2 AS text)) WHERE id = ?1"
      : "INSERT INTO messages_fts (rowid, topic, body) VALUES (?, ?, ?)",
  );
  if (engineOf(db) === "postgres") for (const r of rows) insert.add(r.id, searchDocument(r.topic, r.text));
  else for (const r of rows) insert.add(r.id, r.topic, r.text);
  await insert.done();
  if (engineOf(db) !== "postgres") written.add(sqliteOf(db));
}

/**
 * SQLite's FTS5 merges its index segments by itself inside the COMMIT that crosses a unit of writes: up to
 * 30 ms of one COMMIT on the event loop, measured on 200,000 messages. The server turns that off once
 * (`automerge` is kept in the index's own config table) and merges in slices instead (mergeSearchIndex).
 * Segments can still pile up to FTS5's crisis merge (16 on a level) where nothing merges, as under a CLI
 * import, which is then merged at once as before.
 */
export async function stopSearchAutomerge(db: Db) {
  await raw(db).run("INSERT INTO messages_fts (messages_fts, rank) VALUES ('automerge', 0)");
}

/** Whether FTS5's own merging is already off (SQLite; stopSearchAutomerge). */
export const searchAutomergeStopped = async (db: Db) => (await raw(db).get<{ v: number }>("SELECT v FROM messages_fts_config WHERE k = 'automerge'"))?.v === 0;

/**
 * One slice of FTS5's merging: about `pages` pages written (32 took under 2 ms here). True when more merge
 * work waits (FTS5's own sign: the command changed at least two rows).
 */
export async function mergeSearchIndex(db: Db, pages: number): Promise<boolean> {
  if (engineOf(db) === "postgres") return false;
  const changes = async () => (await raw(db).get<{ n: number }>("SELECT total_changes() AS n"))!.n;
  const before = await changes();
  await raw(db).run(`INSERT INTO messages_fts (messages_fts, rank) VALUES ('merge', ${Math.trunc(pages)})`);
  return (await changes()) - before >= 2;
}

/** On PostgreSQL a message's tsvector is a column of its row, and goes with it. */
export async function unindexMessages(db: Db, ids: number[]) {
  if (engineOf(db) === "postgres") return;
  await raw(db).run("DELETE FROM messages_fts WHERE rowid IN (SELECT value FROM json_each(?))", JSON.stringify(ids));
  written.add(sqliteOf(db));
}

const byId = preparedPerDb((db) => {
  const { messages } = tables(db);
  return db
    .select()
    .from(messages)
    .where(eq(messages.id, sql.placeholder("id")));
});

export const findMessage = async (db: Db, id: number): Promise<MessageRow | undefined> => byId(db).get({ id });

// A page of messages and what their objects need, by id lists: prepared once (building these drizzle
// queries was a third of a narrow fetch's CPU).
const messagesByIds = preparedPerDb((db) => {
  const { messages } = tables(db);
  return db.select().from(messages).where(inIdsPlaceholder(db, messages.id)).orderBy(messages.id);
});
const recipientsByIds = preparedPerDb((db) => {
  const { recipients } = tables(db);
  return db.select().from(recipients).where(inIdsPlaceholder(db, recipients.id));
});
const reactionsOfMessages = preparedPerDb((db) => {
  const { reactions } = tables(db);
  return db.select().from(reactions).where(inIdsPlaceholder(db, reactions.messageId)).orderBy(reactions.id);
});
const submessagesOfMessages = preparedPerDb((db) => {
  const { submessages } = tables(db);
  return db.select().from(submessages).where(inIdsPlaceholder(db, submessages.messageId)).orderBy(submessages.id);
});
const channelNamesByIds = preparedPerDb((db) => {
  const { channels } = tables(db);
  return db.select({ id: channels.id, name: channels.name }).from(channels).where(inIdsPlaceholder(db, channels.id));
});

/** Messages by id, in id order. */
export const listMessagesByIds = async (db: Db, ids: number[]): Promise<MessageRow[]> => (ids.length ? messagesByIds(db).all({ ids: idsValue(db, ids) }) : []);

export const updateMessage = async (db: Db, id: number, patch: Partial<typeof messages.$inferInsert>) => {
  const { messages } = tables(db);
  return run(db.update(messages).set(patch).where(eq(messages.id, id)));
};

export async function deleteMessages(db: Db, ids: number[]) {
  const s = raw(db);
  const json = idsValue(db, ids);
  await s.run(`DELETE FROM user_messages WHERE message_id IN (SELECT value FROM ${idsTable(db, "?")})`, json);
  await s.run(`DELETE FROM reactions WHERE message_id IN (SELECT value FROM ${idsTable(db, "?")})`, json);
  await s.run(`DELETE FROM submessages WHERE message_id IN (SELECT value FROM ${idsTable(db, "?")})`, json);
  await s.run(`DELETE FROM messages WHERE id IN (SELECT value FROM ${idsTable(db, "?")})`, json);
  await unindexMessages(db, ids);
}

// ---- Recipients (conversations) ----

export const findRecipient = async (db: Db, id: number): Promise<RecipientRow | undefined> => {
  const { recipients } = tables(db);
  return first(db.select().from(recipients).where(eq(recipients.id, id)));
};

export const findDmRecipient = async (db: Db, userIds: readonly number[]): Promise<RecipientRow | undefined> => {
  const { recipients } = tables(db);
  return first(
    db
      .select()
      .from(recipients)
      .where(eq(recipients.dmKey, dmKey(userIds))),
  );
};

/** The conversation of these participants, created on its first message. */
export async function dmRecipient(db: Db, realmId: number, userIds: readonly number[]): Promise<RecipientRow> {
  const { recipients } = tables(db);
  const found = await findDmRecipient(db, userIds);
  if (found) return found;
  const key = dmKey(userIds);
  const r = await first(db.insert(recipients).values({ realmId, dmKey: key }).returning());
  const insert = raw(db).batch("INSERT INTO dm_members (recipient_id, user_id) VALUES (?, ?) ON CONFLICT DO NOTHING");
  for (const u of new Set(userIds)) insert.add(r.id, u);
  await insert.done();
  return r;
}

// ---- What message objects need, for a page of messages at once ----

export interface MessageLookups {
  users: Map<number, typeof users.$inferSelect>;
  recipients: Map<number, RecipientRow>;
  channelNames: Map<number, string>;
  reactions: Map<number, { emoji_name: string; emoji_code: string; reaction_type: string; user_id: number }[]>;
  submessages: Map<number, ApiSubmessage[]>;
}

/** Zulip's submessage object, on message objects and in `submessage` events. */
export interface ApiSubmessage {
  id: number;
  message_id: number;
  sender_id: number;
  msg_type: string;
  content: string;
}

export const toApiSubmessage = (r: SubmessageRow): ApiSubmessage => ({
  id: r.id,
  message_id: r.messageId,
  sender_id: r.senderId,
  msg_type: r.msgType,
  content: r.content,
});

/** The submessages of these messages, in the order they were added. */
export async function submessagesOf(db: Db, messageIds: number[]): Promise<Map<number, ApiSubmessage[]>> {
  const out = new Map<number, ApiSubmessage[]>();
  if (!messageIds.length) return out;
  for (const r of await submessagesOfMessages(db).all({ ids: idsValue(db, messageIds) })) {
    let l = out.get(r.messageId);
    if (!l) out.set(r.messageId, (l = []));
    l.push(toApiSubmessage(r));
  }
  return out;
}

/** Senders, conversations (with their members), channel names, reactions and submessages of these messages: five queries. */
export async function messageLookups(db: Db, rows: MessageRow[]): Promise<MessageLookups> {
  const recipientIds = [...new Set(rows.map((m) => m.recipientId))];
  const recs = recipientIds.length ? await recipientsByIds(db).all({ ids: idsValue(db, recipientIds) }) : [];
  const userIds = new Set(rows.map((m) => m.senderId));
  for (const r of recs) if (r.dmKey) for (const id of r.dmKey.split(",")) userIds.add(Number(id));
  const channelIds = recs.filter((r) => r.channelId !== null).map((r) => r.channelId!);
  const messageIds = rows.map((m) => m.id);
  const reactionRows = messageIds.length ? await reactionsOfMessages(db).all({ ids: idsValue(db, messageIds) }) : [];
  const byMessage = new Map<number, MessageLookups["reactions"] extends Map<number, infer V> ? V : never>();
  for (const r of reactionRows) {
    let l = byMessage.get(r.messageId);
    if (!l) byMessage.set(r.messageId, (l = []));
    l.push({ emoji_name: r.emojiName, emoji_code: r.emojiCode, reaction_type: r.reactionType, user_id: r.userId });
  }
  return {
    users: new Map((await listUsersByIds(db, [...userIds])).map((u) => [u.id, u])),
    recipients: new Map(recs.map((r) => [r.id, r])),
    channelNames: new Map((channelIds.length ? await channelNamesByIds(db).all({ ids: idsValue(db, channelIds) }) : []).map((c) => [c.id, c.name])),
    reactions: byMessage,
    submessages: await submessagesOf(db, messageIds),
  };
}

/** The highest message id (for register's max_message_id and the `newest` anchor's bound). */
export const maxMessageId = async (db: Db): Promise<number> => (await raw(db).get<{ id: number | null }>("SELECT MAX(id) AS id FROM messages"))?.id ?? 0;

/** Whether a topic of this conversation already has messages (can_create_topic_group applies to new ones). */
export const topicExists = async (db: Db, recipientId: number, topic: string): Promise<boolean> =>
  !!(await raw(db).get("SELECT 1 FROM messages WHERE recipient_id = ? AND topic = ? LIMIT 1", recipientId, topic));

/** Every user's alert words (of those who have any), in one query. */
export async function allAlertWords(db: Db): Promise<Map<number, string[]>> {
  const out = new Map<number, string[]>();
  const rows = await raw(db).all<{ u: number; w: string }>("SELECT user_id AS u, word AS w FROM alert_words");
  for (const r of rows) {
    let l = out.get(r.u);
    if (!l) out.set(r.u, (l = []));
    l.push(r.w);
  }
  return out;
}

/** Users who sent messages to a topic (the audience of @**topic**). */
export const topicParticipants = async (db: Db, recipientId: number, topic: string): Promise<number[]> =>
  (await raw(db).all<{ id: number }>("SELECT DISTINCT sender_id AS id FROM messages WHERE recipient_id = ? AND topic = ?", recipientId, topic)).map(
    (r) => r.id,
  );

// ---- Search highlights ----

export const escapeHtml = (s: string) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;").replace(/'/g, "&#x27;");

// Markers FTS5 wraps matched tokens in: private-use characters, which neither rendered HTML nor topics carry.
const START = "\uE000";
const STOP = "\uE001";

/** Zulip's highlight: a match becomes <span class="highlight">…</span>, except inside an HTML tag. */
function markHighlights(marked: string): string {
  let out = "";
  let inTag = false;
  let open = false;
  for (const ch of marked) {
    if (ch === START) {
      if (!inTag) (out += '<span class="highlight">'), (open = true);
    } else if (ch === STOP) {
      if (open) (out += "</span>"), (open = false);
    } else {
      if (ch === "<") inTag = true;
      else if (ch === ">") inTag = false;
      out += ch;
    }
  }
  return out;
}

/**
 * FTS5's highlight() for PostgreSQL: each part of the search (a word, or a quoted phrase's words in a
 * row) marked where the document's words, outside HTML tags, have the same stems in that order;
 * overlapping marks join. The stems are PostgreSQL's (the English stemmer its index uses), asked once
 * for every word of the page. ts_headline would parse the HTML itself, keeping a URL whole.
 */
async function markMatchesByStem(db: Db, match: string, docs: string[]): Promise<string[]> {
  const parts = [...match.matchAll(/"([^"]*)"/g)].map((m) => m[1]!.split(" "));
  const tokens = docs.map(wordsOutsideTags);
  const words = new Set([...parts.flat(), ...tokens.flatMap((t) => t.map((w) => w.word))]);
  const stem = new Map(
    (
      await raw(db).all<{ w: string; s: string }>(
        "SELECT w, COALESCE((ts_lexize('english_stem', w))[1], w) AS s FROM unnest(CAST(? AS text[])) AS w",
        `{${[...words].map((w) => `"${w}"`).join(",")}}`, // letters and digits only: nothing to escape
      )
    ).map((r) => [r.w, r.s]),
  );
  const wanted = parts.map((p) => p.map((w) => stem.get(w)));
  return docs.map((doc, d) => {
    const ws = tokens[d]!;
    const spans: [number, number][] = [];
    for (let i = 0; i < ws.length; i++)
      for (const p of wanted)
        if (i + p.length <= ws.length && p.every((s, k) => stem.get(ws[i + k]!.word) === s)) spans.push([ws[i]!.start, ws[i + p.length - 1]!.end]);
    spans.sort((a, b) => a[0] - b[0]);
    let out = "";
    let at = 0;
    for (let k = 0; k < spans.length; k++) {
      const [start] = spans[k]!;
      let end = spans[k]![1];
      while (k + 1 < spans.length && spans[k + 1]![0] < end) end = Math.max(end, spans[++k]![1]);
      if (start < at) continue;
      out += `${doc.slice(at, start)}${START}${doc.slice(start, end)}${STOP}`;
      at = end;
    }
    return out + doc.slice(at);
  });
}

/** The words of a document outside HTML tags, lowercased, with where each is. */
function wordsOutsideTags(doc: string): { word: string; start: number; end: number }[] {
  const out: { word: string; start: number; end: number }[] = [];
  let inTag = false;
  for (const m of doc.matchAll(/<|>|[\p{L}\p{N}]+/gu)) {
    if (m[0] === "<") inTag = true;
    else if (m[0] === ">") inTag = false;
    else if (!inTag) out.push({ word: m[0].toLowerCase(), start: m.index, end: m.index + m[0].length });
  }
  return out;
}

/**
 * match_content and match_subject for search results: the rendered content and escaped topic with the
 * words the query matched highlighted. The words are found by SQLite's own tokenizer and stemmer (a
 * scratch FTS5 table with the index's settings), so highlights agree exactly with what matched.
 */
export async function highlightMatches(
  db: Db,
  match: string | null,
  rows: MessageRow[],
): Promise<Map<number, { match_content: string; match_subject: string }>> {
  const out = new Map<number, { match_content: string; match_subject: string }>();
  for (const m of rows) out.set(m.id, { match_content: m.renderedContent, match_subject: escapeHtml(m.topic) });
  if (!match || !rows.length) return out;
  if (engineOf(db) === "postgres") {
    const docs = rows.map((m) => [m.renderedContent, escapeHtml(m.topic)] as const);
    const marked = await markMatchesByStem(db, match, docs.flat());
    rows.forEach((m, i) => out.set(m.id, { match_content: markHighlights(marked[2 * i]!), match_subject: markHighlights(marked[2 * i + 1]!) }));
    return out;
  }
  const s = sqliteOf(db);
  s.run("CREATE VIRTUAL TABLE IF NOT EXISTS temp.search_highlight USING fts5(body, topic, tokenize='porter unicode61 remove_diacritics 2')");
  const insert = s.query("INSERT INTO temp.search_highlight (rowid, body, topic) VALUES (?, ?, ?)");
  for (const m of rows) insert.run(m.id, m.renderedContent, escapeHtml(m.topic));
  try {
    const marked = s
      .query<{ id: number; body: string; topic: string }, [string, string, string, string, string]>(
        "SELECT rowid AS id, highlight(search_highlight, 0, ?1, ?2) AS body, highlight(search_highlight, 1, ?3, ?4) AS topic FROM temp.search_highlight WHERE search_highlight MATCH ?5",
      )
      .all(START, STOP, START, STOP, match);
    for (const r of marked) out.set(r.id, { match_content: markHighlights(r.body), match_subject: markHighlights(r.topic) });
  } finally {
    s.run("DELETE FROM temp.search_highlight");
  }
  return out;
}

/**
 * Ids of a topic's messages, oldest first, from `fromId` on; with `receivedBy`, only those that user
 * received (their rows caught up first), else every one (the channel's history is readable).
 */
export async function listTopicMessageIds(
  db: Db,
  recipientId: number,
  topic: string,
  o: { fromId?: number; receivedBy: number | null; limit?: number },
): Promise<number[]> {
  const params: number[] = [];
  let join = "";
  if (o.receivedBy !== null) {
    join = " JOIN user_messages um ON um.message_id = m.id AND um.user_id = ?";
    params.push(o.receivedBy);
  }
  const limit = o.limit === undefined ? [] : [o.limit];
  return (
    await raw(db).all<{ id: number }>(
      `SELECT m.id FROM messages m${join} WHERE m.recipient_id = ? AND m.topic = ? AND m.id >= ? ORDER BY m.id${limit.length ? " LIMIT ?" : ""}`,
      ...params,
      recipientId,
      topic,
      o.fromId ?? 0,
      ...limit,
    )
  ).map((r) => r.id);
}

/** When each message was sent, by id. */
export const listMessageDates = async (db: Db, ids: number[]): Promise<{ id: number; d: number }[]> =>
  await raw(db).all<{ id: number; d: number }>(
    `SELECT id, date_sent AS d FROM messages WHERE id IN (SELECT value FROM ${idsTable(db, "?")}) ORDER BY id`,
    idsValue(db, ids),
  );

export const countTopicMessages = async (db: Db, recipientId: number, topic: string): Promise<number> =>
  (await raw(db).get<{ n: number }>("SELECT COUNT(*) AS n FROM messages WHERE recipient_id = ? AND topic = ?", recipientId, topic))!.n;

/** Each message's channel (null for a direct message). */
export const channelsOfMessages = async (db: Db, ids: number[]): Promise<{ id: number; c: number | null }[]> =>
  await raw(db).all<{ id: number; c: number | null }>(
    `SELECT m.id, r.channel_id AS c FROM messages m JOIN recipients r ON r.id = m.recipient_id WHERE m.id IN (SELECT value FROM ${idsTable(db, "?")})`,
    idsValue(db, ids),
  );

/** The direct-message conversations a viewer shares with a user (with `groupsOnly`, those of three or more). */
export const dmRecipientsWith = async (db: Db, viewerId: number, userId: number, groupsOnly: boolean): Promise<number[]> =>
  (
    await raw(db).all<{ r: number }>(
      `SELECT a.recipient_id AS r FROM dm_members a JOIN dm_members b ON b.recipient_id = a.recipient_id AND b.user_id = ?2
       WHERE a.user_id = ?1 ${groupsOnly ? "AND (SELECT COUNT(*) FROM dm_members c WHERE c.recipient_id = a.recipient_id) >= 3" : ""}`,
      viewerId,
      userId,
    )
  ).map((r) => r.r);
