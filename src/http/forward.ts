// A request for another node's event queue (PostgreSQL, several nodes: docs/scaling.md, section 3). A
// queue lives in the memory of the node that registered it and its id names that node; a proxy without
// sticky routing may send its polls anywhere. Such a request takes one internal hop to the owner, with
// the client's own credentials (Authorization, or the session cookie and CSRF token), which the owner
// checks as it checks any request: the hop grants nothing the client could not ask the owner directly.
// An owner that died (stale heartbeat, address refusing) took its queues with it: the request is then
// answered here as any unknown queue is, BAD_EVENT_QUEUE_ID, and the client registers again.
import type { App } from "../context";

/** Marks a forwarded request: the owner answers it itself (one hop at most, never a loop). */
const FORWARDED = "x-confab-forwarded-by";

/** Headers that belong to one connection, or that fetch sets itself. */
const HOP_HEADERS = ["connection", "keep-alive", "transfer-encoding", "content-length", "content-type", "accept-encoding", "upgrade"];

/** The node a PostgreSQL queue id names (`<node>:<id>`), or null. */
export const queueNode = (queueId: string): string | null => {
  const i = queueId.indexOf(":");
  return i > 0 ? queueId.slice(0, i) : null;
};

/**
 * The owner's answer when `queueId` is another live node's queue; null when this node answers: its own
 * queue, SQLite, a request already forwarded, or an owner that is gone (the queue is unknown here too).
 * A GET goes on with its query as the client sent it; a DELETE /events takes only the queue id.
 */
export async function forwarded(app: App, req: Request, queueId: string): Promise<Response | null> {
  const owner = queueNode(queueId);
  if (!app.node || owner === null || owner === app.node.name || req.headers.has(FORWARDED)) return null;
  const address = await app.node.addressOf(owner);
  if (!address) return null;
  const url = new URL(req.url);
  const headers = new Headers(req.headers);
  for (const h of HOP_HEADERS) headers.delete(h);
  headers.set(FORWARDED, app.node.name);
  const get = req.method === "GET";
  try {
    const res = await fetch(`${address}${url.pathname}${get ? url.search : ""}`, {
      method: req.method,
      headers,
      body: get ? undefined : new URLSearchParams({ queue_id: queueId }),
      signal: req.signal, // the client went away: so does the hop
      redirect: "manual",
    });
    return new Response(res.body, { status: res.status, headers: { "content-type": res.headers.get("content-type") ?? "application/json" } });
  } catch (e) {
    app.log.info("forwarding to a queue's node failed", { node: owner, error: String((e as Error)?.message ?? e) });
    return null; // refused or cut off: the node died (with the queue)
  }
}
