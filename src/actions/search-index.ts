// The full-text index is written in batches, not by each send: one batch of a thousand messages costs
// far less than a thousand one-message updates (FTS5 writes a segment per transaction and merges them
// later). Searches index what is waiting first, so they never miss a message; in between, the
// indexer (startSearchIndexer) keeps the wait to about a second. Zulip, too, updates its search index
// outside the send.
import type { App } from "../app";
import { textForSearch } from "../render";
import * as store from "../store/messages";

export const INDEX_BATCH = 1000;

/** Indexes one batch of waiting messages; returns how many. */
export function indexBatch(app: App): number {
  return app.tx((tx) => {
    const rows = store.unindexedMessages(tx.db, INDEX_BATCH);
    store.indexMessages(tx.db, rows.map((r) => ({ id: r.id, topic: r.topic, text: textForSearch(r.html) })));
    return rows.length;
  }, { keepsLookups: true });
}

/** Before a search: everything sent so far is indexed. */
export function catchUpSearch(app: App) {
  while (indexBatch(app) === INDEX_BATCH);
}
