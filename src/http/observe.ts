// The per-request hook: API rate limits (Zulip's api_by_user / api_by_ip) and the request metrics.
// Kept to a few number operations per request; see lib/rate-limit.ts and lib/metrics.ts.
import type { App } from "../context";
import { RequestLimiter, type RateState } from "../lib/rate-limit";

export interface RequestGate {
  /** The metrics slot of a route, e.g. "GET /users/{user_id}" (once per route, when the server is built). */
  slot(label: string): number;
  /** Counts the request against its user's limit, or its address's when unauthenticated; throws past it. */
  limit(userId: number | null, ip: () => string): RateState | null;
  /** Records the answer. */
  done(slot: number, status: number, startedMs: number): void;
}

/** How often a node adds its API request counts to the cluster's and learns the others'. */
const SYNC_MS = 1000;

export function requestGate(app: App): RequestGate {
  const byUser = new RequestLimiter<number>(app.config.rateLimit.apiByUser);
  const byIp = new RequestLimiter<string>(app.config.rateLimit.apiByIp);
  const shared = app.sharedCounters;
  if (shared && (byUser.enabled || byIp.enabled)) {
    // Several nodes: counted here, shared every second (lib/rate-limit.ts, docs/scaling.md section 6).
    byUser.share();
    byIp.share();
    shared.every(SYNC_MS, async () => {
      await byUser.sync(shared, "api-user");
      await byIp.sync(shared, "api-ip");
    });
  }
  const requests = app.metrics.requests;
  return {
    slot: (label) => requests.register(label),
    limit(userId, ip) {
      try {
        if (userId !== null) return byUser.enabled ? byUser.take(userId) : null;
        return byIp.enabled ? byIp.take(ip()) : null;
      } catch (e) {
        app.metrics.rateLimited++;
        throw e;
      }
    },
    done: (slot, status, startedMs) => requests.observe(slot, status, (performance.now() - startedMs) / 1000),
  };
}
