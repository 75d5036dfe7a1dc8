import { longpollTimeoutSeconds } from "../events/registry";
import { EMPTY_TOPIC_DISPLAY_NAME } from "../domain/messages";
import type { App } from "../context";
import type { RealmRow, UserRow } from "../db/schema";
import { anonymousParam, badEventQueue, notLoggedIn } from "../domain/errors";
import { messageNarrowPredicate } from "../domain/event-narrow";
import type { EventQueue } from "../events/queue";
import { STATE_BUILDERS, type RegisterOptions } from "../events/state";
import { versionFields } from "../version";
import { spectatorsAllowed } from "../domain/realm-access";
import { catchUp } from "./catch-up";
import { p, Param, t, type Args } from "../domain/params";

/** Seconds, or "mobile" (zulip-flutter sends it JSON-encoded, others as plain text). */
const seconds = p.int({ min: 10, max: 7 * 24 * 3600 });
const idleQueueTimeout = new Param<number | "mobile">(
  (raw, n) => (raw === "mobile" || raw === '"mobile"' ? "mobile" : seconds.parse(raw, n)),
  'integer or "mobile"',
);

export const registerParams = {
  apply_markdown: p.bool().optional(false),
  client_gravatar: p.bool().optional(),
  include_subscribers: p.json(t.union<boolean | "partial">(t.bool(), t.enum(["partial"] as const))).optional(),
  slim_presence: p.bool().optional(false),
  presence_history_limit_days: p.int({ min: 0 }).optional(),
  event_types: p.strList().optional(),
  all_public_streams: p.bool().optional(false),
  client_capabilities: p.json(t.dict(t.bool())).optional(() => ({})),
  fetch_event_types: p.strList().optional(),
  narrow: p.json(t.list(t.list(t.str()))).optional(() => []),
  idle_queue_timeout: idleQueueTimeout.optional(),
};

/** The idle lifetime asked for as "mobile": an app in the background keeps its queue for a day. */
const MOBILE_IDLE_QUEUE_TIMEOUT_SECS = 24 * 3600;

/**
 * POST /register: a queue and the initial state, built in one synchronous stretch so no event can
 * fall between the snapshot and the queue.
 */
export async function register(app: App, realm: RealmRow, user: UserRow | null, a: Args<typeof registerParams>) {
  if (!user) {
    if (a.client_gravatar === true) throw anonymousParam("client_gravatar");
    if (a.include_subscribers === true) throw anonymousParam("include_subscribers");
    if (!spectatorsAllowed(realm)) throw notLoggedIn();
  }
  const narrow = a.narrow as [string, string][]; // [operator, operand] pairs, as the event narrow reads them
  const opts: RegisterOptions = {
    applyMarkdown: a.apply_markdown,
    clientGravatar: a.client_gravatar ?? user !== null,
    includeSubscribers: a.include_subscribers ?? false,
    slimPresence: a.slim_presence,
    presenceHistoryLimitDays: a.presence_history_limit_days ?? 14,
    allPublicStreams: a.all_public_streams,
    capabilities: a.client_capabilities,
    narrow,
  };
  const idleTimeoutSecs =
    a.idle_queue_timeout === "mobile" ? MOBILE_IDLE_QUEUE_TIMEOUT_SECS : (a.idle_queue_timeout ?? app.config.events.idleQueueTimeoutSeconds);
  const queue = user
    ? app.queues.create({
        userId: user.id,
        realmId: realm.id,
        eventTypes: a.event_types ? new Set(a.event_types) : null,
        allPublicStreams: a.all_public_streams,
        acceptsMessage: narrow.length ? messageNarrowPredicate(narrow) : null,
        capabilities: a.client_capabilities,
        applyMarkdown: a.apply_markdown,
        clientGravatar: opts.clientGravatar,
        idleTimeoutSecs,
      })
    : null;
  const wanted = a.fetch_event_types ?? a.event_types ?? Object.keys(STATE_BUILDERS);
  const state: Record<string, unknown> = {};
  await catchUp(app, user); // the state reads the user's message rows
  // Other requests' changes may land between these reads: the queue exists already, so their events
  // reach it after COMMIT whatever the state saw (at worst a change is in both, as Zulip allows).
  for (const type of new Set(wanted)) Object.assign(state, await STATE_BUILDERS[type]?.({ app, realm, user, opts }));
  const l = app.config.limits;
  // The fields every register answers (the contract lists them), then the state of each fetched type.
  return {
    queue_id: queue?.id ?? null,
    last_event_id: -1,
    ...versionFields(),
    max_stream_name_length: l.maxStreamNameLength,
    max_stream_description_length: l.maxStreamDescriptionLength,
    max_message_length: l.maxMessageLength,
    realm_empty_topic_display_name: EMPTY_TOPIC_DISPLAY_NAME,
    idle_queue_timeout_secs: idleTimeoutSecs,
    event_queue_longpoll_timeout_seconds: longpollTimeoutSeconds(app.config.events),
    ...state,
  };
}

function ownQueue(app: App, user: UserRow, id: string): EventQueue {
  const q = app.queues.get(id);
  if (!q || q.opts.userId !== user.id) throw badEventQueue(id);
  return q;
}

/** GET /events: acknowledges through last_event_id, then answers what is pending or waits for it. */
export const getEventsParams = { queue_id: p.str(), last_event_id: p.int().optional(), dont_block: p.bool().optional(false) };

export async function getEvents(app: App, user: UserRow, a: Args<typeof getEventsParams>) {
  const q = ownQueue(app, user, a.queue_id);
  q.lastActivity = Date.now();
  if (a.last_event_id !== undefined) q.prune(a.last_event_id);
  const pending = await q.pending();
  if (pending.length || a.dont_block) return { events: pending, queue_id: q.id };
  const events = await app.queues.hold(q);
  q.lastActivity = Date.now();
  return { events, queue_id: q.id };
}

/** DELETE /events. */
export function deleteQueue(app: App, user: UserRow, id: string) {
  app.queues.delete(ownQueue(app, user, id));
  return {};
}
