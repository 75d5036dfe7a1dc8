// The full-text index is written in batches, not by each send: one batch of a thousand messages costs
// far less than a thousand one-message updates (FTS5 writes a segment per transaction and merges them
// later). Searches index what is waiting first, so they never miss a message; in between, the
// indexer (runtime/housekeeping.ts) keeps the wait to about a second. Zulip, too, updates its search index
// outside the send.
import type { App } from "../context";
import { textForSearch } from "../render";
import * as store from "../store/messages";

/** A search waits for what is left in batches this big. */
const INDEX_BATCH = 1000;

/** Indexes one batch of waiting messages (no transaction when none wait); true when more may wait. */
export async function indexBatch(app: App, size = INDEX_BATCH): Promise<boolean> {
  const rows = await store.unindexedMessages(app.db, size);
  if (!rows.length) return false;
  await app.tx(
    async (tx) =>
      await store.indexMessages(
        tx.db,
        rows.map((r) => ({ id: r.id, topic: r.topic, text: textForSearch(r.html) })),
      ),
    { keepsLookups: true },
  );
  return rows.length === size;
}

/** Before a search: everything sent so far is indexed. */
export async function catchUpSearch(app: App) {
  while (await indexBatch(app));
}
