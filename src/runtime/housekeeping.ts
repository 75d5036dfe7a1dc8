import { deleteUnreferencedUploads } from "../actions/attachments";
import { applyRetention } from "../actions/retention";
import { deleteExpiredSessions } from "../actions/sessions";
import { syncFullMembers } from "../actions/users";
import type { App } from "../context";
import { BACKGROUND_INDEX_BATCH, indexBatch } from "../actions/search-index";
import { deliverBacklog } from "../actions/catch-up";
import { listRealms } from "../store/realms";

/** Every minute, subscriptions this many messages behind get their rows written, in chunks this big (a few ms each). */
const BACKLOG_LAG = 1000;
const BACKLOG_CHUNK = 2000;
const BACKLOG_EVERY_MS = 60_000;

/**
 * The periodic housekeeping: message retention, uploads no message links (after their grace period), and members whose accounts aged past the realm's
 * waiting period joining role:fullmembers, soon after start and then every `intervalSeconds`; and every
 * minute the rows of subscribers far behind (store/lazy-delivery.ts), a chunk per event-loop turn so
 * requests keep being served. Returns a stop function.
 */
export function startHousekeeping(app: App, intervalSeconds: number): () => void {
  const run = () => {
    try {
      applyRetention(app);
      deleteUnreferencedUploads(app);
      deleteExpiredSessions(app);
      for (const realm of listRealms(app.db)) if (!realm.deactivated) syncFullMembers(app, realm);
    } catch (e) {
      app.log.error("housekeeping failed", { error: String((e as Error).message) });
    }
  };
  const first = setTimeout(run, 30_000);
  const every = setInterval(run, intervalSeconds * 1000);
  for (const t of [first, every]) t.unref?.();
  const stopBacklog = everyInBatches(app, BACKLOG_EVERY_MS, "housekeeping", () => deliverBacklog(app, BACKLOG_LAG, BACKLOG_CHUNK) === BACKLOG_CHUNK);
  return () => {
    clearTimeout(first);
    clearInterval(every);
    stopBacklog();
  };
}

/** Indexes the messages waiting for search (actions/search-index.ts) every `intervalMs`; returns a stop function. */
export const startSearchIndexer = (app: App, intervalMs = 1000) =>
  everyInBatches(app, intervalMs, "search indexing", () => indexBatch(app, BACKGROUND_INDEX_BATCH));

/**
 * Every `intervalMs`, runs `batch` until it says nothing more waits, one batch per event-loop turn so
 * requests keep being served between them; returns a stop function.
 */
function everyInBatches(app: App, intervalMs: number, what: string, batch: () => boolean): () => void {
  let stopped = false;
  const drain = () => {
    try {
      if (!stopped && batch()) setImmediate(drain);
    } catch (e) {
      app.log.error(`${what} failed`, { error: String((e as Error).message) });
    }
  };
  const timer = setInterval(drain, intervalMs);
  timer.unref?.();
  return () => {
    stopped = true;
    clearInterval(timer);
  };
}
