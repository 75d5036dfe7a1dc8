// The full-text index is written in batches, not by each send: one batch of a thousand messages costs
// far less than a thousand one-message updates (FTS5 writes a segment per transaction and merges them
// later). Searches index what is waiting first, so they never miss a message; in between, the
// indexer (runtime/housekeeping.ts) keeps the wait to about a second. Zulip, too, updates its search index
// outside the send.
import type { App } from "../context";
import { engineOf } from "../db/engine";
import { textForSearch } from "../render";
import * as store from "../store/messages";

/** A search waits for what is left in batches this big. */
const INDEX_BATCH = 1000;

/** Indexes one batch of waiting messages (no transaction when none wait); how many it indexed. */
export async function indexBatch(app: App, size = INDEX_BATCH): Promise<number> {
  const rows = await store.unindexedMessages(app.db, size);
  if (!rows.length) return 0;
  await app.tx(
    async (tx) =>
      await store.indexMessages(
        tx.db,
        rows.map((r) => ({ id: r.id, topic: r.topic, text: textForSearch(r.html) })),
      ),
    { keepsLookups: true },
  );
  return rows.length;
}

/** Pages of FTS5 merging per slice (store/messages.ts mergeSearchIndex): under 2 ms, and enough to keep up. */
const MERGE_PAGES = 32;

/** The server merges the index itself, a slice at a time (store/messages.ts stopSearchAutomerge). */
export async function takeOverSearchMerging(app: App) {
  // PostgreSQL's index is a column, merged by nobody; once off, a start opens no transaction for it.
  if (engineOf(app.db) === "postgres" || (await store.searchAutomergeStopped(app.db))) return;
  await app.tx(async (tx) => await store.stopSearchAutomerge(tx.db), { keepsLookups: true });
}

/** One slice of merging the index's segments; true when more waits. */
export async function mergeSearchSlice(app: App): Promise<boolean> {
  return await app.tx(async (tx) => await store.mergeSearchIndex(tx.db, MERGE_PAGES), { keepsLookups: true });
}

/** Whether the index was written since the last call (by anyone: the indexer, a search's catch-up, an edit). */
export const searchIndexWritten = (app: App) => store.takeSearchIndexWritten(app.db);

/** Before a search: everything sent so far is indexed. */
export async function catchUpSearch(app: App) {
  while ((await indexBatch(app)) === INDEX_BATCH);
}
