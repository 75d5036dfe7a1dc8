import { applyRetention } from "../actions/retention";
import { syncFullMembers } from "../actions/users";
import type { App } from "../app";
import { deliverBacklog } from "../store/deliveries";
import { listRealms } from "../store/realms";

/** Every minute, subscriptions this many messages behind get their rows written, in chunks this big. */
const BACKLOG_LAG = 1000;
const BACKLOG_CHUNK = 10_000;
const BACKLOG_EVERY_MS = 60_000;

/**
 * The periodic housekeeping: message retention and members whose accounts aged past the realm's
 * waiting period joining role:fullmembers, soon after start and then every `intervalSeconds`; and every
 * minute the rows of subscribers far behind (store/deliveries.ts), a chunk per event-loop turn so
 * requests keep being served. Returns a stop function.
 */
export function startHousekeeping(app: App, intervalSeconds: number): () => void {
  let stopped = false;
  const failed = (e: unknown) => app.log.error("housekeeping failed", { error: String((e as Error).message) });
  const deliverChunk = () => {
    try {
      if (!stopped && app.tx((tx) => deliverBacklog(tx.db, BACKLOG_LAG, BACKLOG_CHUNK), { keepsLookups: true }) === BACKLOG_CHUNK)
        setTimeout(deliverChunk, 0);
    } catch (e) {
      failed(e);
    }
  };
  const run = () => {
    try {
      applyRetention(app);
      for (const realm of listRealms(app.db)) if (!realm.deactivated) syncFullMembers(app, realm);
    } catch (e) {
      failed(e);
    }
  };
  const first = setTimeout(run, 30_000);
  const every = setInterval(run, intervalSeconds * 1000);
  const backlog = setInterval(deliverChunk, BACKLOG_EVERY_MS);
  for (const t of [first, every, backlog]) t.unref?.();
  return () => {
    stopped = true;
    clearTimeout(first);
    clearInterval(every);
    clearInterval(backlog);
  };
}
