// Event queues from a client's side: register, read what is pending, poll until a condition holds, close.
import { ok, type Body, type Client, type Params } from "./client";
import { waitFor } from "./wait";

/** A queue: its id, or the `register` answer that holds it. */
type QueueRef = string | Record<string, any>;
const idOf = (q: QueueRef): string => (typeof q === "string" ? q : q.queue_id);

/** POST /register with `params` (lists and objects JSON-encoded like Zulip's clients): the queue and initial state. */
export const register = (c: Client, params: Params = {}): Promise<Body> => ok(c.post("/register", params));

/** Every event the queue holds (from its first, pruning nothing), without waiting; `type` keeps one kind. */
export async function drain(c: Client, q: QueueRef, type?: string): Promise<any[]> {
  const events = (await ok(c.get("/events", { queue_id: idOf(q), last_event_id: -1, dont_block: true }))).events as any[];
  return type === undefined ? events : events.filter((e) => e.type === type);
}

/** Polls the queue until `done` holds for its events and returns them; a timeout names `what`. */
export const eventsUntil = (c: Client, q: QueueRef, what: string, done: (events: any[]) => boolean, timeoutMs = 10_000) =>
  waitFor(
    what,
    async () => {
      const events = await drain(c, q);
      return done(events) && events;
    },
    timeoutMs,
  );

/** DELETE /events: the queue is gone (and a waiting long-poll answered). */
export const closeQueue = (c: Client, q: QueueRef) => ok(c.delete("/events", { queue_id: idOf(q) }));
