import { deleteUnreferencedUploads } from "../actions/attachments";
import { applyRetention } from "../actions/retention";
import { deleteExpiredSessions } from "../actions/sessions";
import { syncFullMembers } from "../actions/users";
import type { App } from "../context";
import { indexBatch, mergeSearchSlice, searchIndexWritten, takeOverSearchMerging } from "../actions/search-index";
import { deliverBacklog } from "../actions/catch-up";
import { listRealms } from "../store/realms";

/** Every minute, subscriptions this many messages behind get their rows written, a slice at a time. */
const BACKLOG_LAG = 1000;
const BACKLOG_EVERY_MS = 60_000;

/**
 * Background work runs in slices of about this many milliseconds, one per event-loop turn: a request
 * that arrives meanwhile waits at most about this long behind it, during a burst's catch-up too.
 */
const SLICE_MS = 2;

/**
 * The periodic housekeeping: message retention, uploads no message links (after their grace period), and members whose accounts aged past the realm's
 * waiting period joining role:fullmembers, soon after start and then every `intervalSeconds`; and every
 * minute the rows of subscribers far behind (store/lazy-delivery.ts), a chunk per event-loop turn so
 * requests keep being served. Returns a stop function.
 */
export function startHousekeeping(app: App, intervalSeconds: number): () => void {
  const run = async () => {
    try {
      await applyRetention(app);
      await deleteUnreferencedUploads(app);
      await deleteExpiredSessions(app);
      for (const realm of await listRealms(app.db)) if (!realm.deactivated) await syncFullMembers(app, realm);
    } catch (e) {
      app.log.error("housekeeping failed", { error: String((e as Error).message) });
    }
  };
  const first = setTimeout(run, 30_000);
  const every = setInterval(run, intervalSeconds * 1000);
  for (const t of [first, every]) t.unref?.();
  const stopBacklog = everyInBatches(
    app,
    BACKLOG_EVERY_MS,
    "housekeeping",
    { first: 500, most: 5000 },
    async (rows) => (await deliverBacklog(app, BACKLOG_LAG, rows)) === rows,
  );
  return () => {
    clearTimeout(first);
    clearInterval(every);
    stopBacklog();
  };
}

/** Indexes the messages waiting for search (actions/search-index.ts) every `intervalMs`; returns a stop function. */
export function startSearchIndexer(app: App, intervalMs = 1000) {
  const merging = takeOverSearchMerging(app).catch((e: Error) => app.log.error("search index merging failed", { error: String(e.message) }));
  // Turns alternate: a batch, then a merge slice in a turn of its own, so the segments each batch adds are
  // merged as they come and no turn holds the event loop for both (perf2's catch-up after a burst).
  // Merging is tried while the index was written since (here, by a search's catch-up or an edit) or the
  // last slice said more waits, so an idle server opens no transaction for it.
  let unmerged = true; // what an earlier run left, at first
  let mergeTurn = false;
  return everyInBatches(app, intervalMs, "search indexing", { first: 50, most: 1000 }, async (messages) => {
    await merging;
    if (mergeTurn) {
      mergeTurn = false;
      unmerged = await mergeSearchSlice(app);
      return "unsized";
    }
    const indexed = await indexBatch(app, messages);
    if (searchIndexWritten(app)) unmerged = true;
    mergeTurn = unmerged;
    return indexed === messages || unmerged;
  });
}

/**
 * Every `intervalMs`, runs `batch(size)` until it says nothing more waits (false), one batch per event-loop turn
 * so requests keep being served between them; returns a stop function. The size follows how long the
 * last batch took, so that each takes about SLICE_MS whatever the machine and the data.
 */
function everyInBatches(
  app: App,
  intervalMs: number,
  what: string,
  sizes: { first: number; most: number },
  batch: (size: number) => Promise<boolean | "unsized">,
): () => void {
  let stopped = false;
  let size = sizes.first;
  let draining = false; // one chain of batches at a time, however long it runs past the interval
  const drain = async () => {
    draining = true;
    let more = false;
    try {
      if (stopped) return;
      const started = performance.now();
      const result = await batch(size);
      more = result !== false;
      const ms = performance.now() - started;
      // Halfway towards the size that would have taken SLICE_MS, within [1, most]; "unsized": a turn of other
      // work (more follows), whose time says nothing of the batches' size.
      if (result !== "unsized") size = Math.max(1, Math.min(sizes.most, Math.round((size + (size * SLICE_MS) / Math.max(ms, 0.05)) / 2)));
    } catch (e) {
      app.log.error(`${what} failed`, { error: String((e as Error).message) });
    } finally {
      draining = more && !stopped;
      if (draining) setImmediate(() => void drain());
    }
  };
  const timer = setInterval(() => draining || void drain(), intervalMs);
  timer.unref?.();
  return () => {
    stopped = true;
    clearInterval(timer);
  };
}
