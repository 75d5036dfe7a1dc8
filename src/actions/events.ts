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

export interface RegisterArgs {
  apply_markdown: boolean;
  client_gravatar: boolean | undefined;
  include_subscribers: boolean | "partial" | undefined;
  slim_presence: boolean;
  presence_history_limit_days: number | undefined;
  event_types: string[] | undefined;
  all_public_streams: boolean;
  client_capabilities: Record<string, boolean>;
  fetch_event_types: string[] | undefined;
  narrow: [string, string][];
  idle_queue_timeout: number | "mobile" | undefined;
}

/** The idle lifetime asked for as "mobile": an app in the background keeps its queue for a day. */
const MOBILE_IDLE_QUEUE_TIMEOUT_SECS = 24 * 3600;

/**
 * POST /register: a queue and the initial state, built in one synchronous stretch so no event can
 * fall between the snapshot and the queue.
 */
export function register(app: App, realm: RealmRow, user: UserRow | null, a: RegisterArgs) {
  if (!user) {
    if (a.client_gravatar === true) throw anonymousParam("client_gravatar");
    if (a.include_subscribers === true) throw anonymousParam("include_subscribers");
    if (!spectatorsAllowed(realm)) throw notLoggedIn();
  }
  const opts: RegisterOptions = {
    applyMarkdown: a.apply_markdown,
    clientGravatar: a.client_gravatar ?? user !== null,
    includeSubscribers: a.include_subscribers ?? false,
    slimPresence: a.slim_presence,
    presenceHistoryLimitDays: a.presence_history_limit_days ?? 14,
    allPublicStreams: a.all_public_streams,
    capabilities: a.client_capabilities,
    narrow: a.narrow,
  };
  const idleTimeoutSecs = a.idle_queue_timeout === "mobile" ? MOBILE_IDLE_QUEUE_TIMEOUT_SECS : (a.idle_queue_timeout ?? app.config.events.idleQueueTimeoutSeconds);
  const queue = user
    ? app.queues.create({
        userId: user.id,
        realmId: realm.id,
        eventTypes: a.event_types ? new Set(a.event_types) : null,
        allPublicStreams: a.all_public_streams,
        acceptsMessage: a.narrow.length ? messageNarrowPredicate(a.narrow) : null,
        capabilities: a.client_capabilities,
        applyMarkdown: a.apply_markdown,
        clientGravatar: opts.clientGravatar,
        idleTimeoutSecs,
      })
    : null;
  const wanted = a.fetch_event_types ?? a.event_types ?? Object.keys(STATE_BUILDERS);
  const state: Record<string, unknown> = {};
  catchUp(app, user); // the state reads the user's message rows
  for (const type of new Set(wanted)) Object.assign(state, STATE_BUILDERS[type]?.({ app, realm, user, opts }));
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
export async function getEvents(app: App, user: UserRow, a: { queue_id: string; last_event_id?: number; dont_block: boolean }) {
  const q = ownQueue(app, user, a.queue_id);
  q.lastActivity = Date.now();
  if (a.last_event_id !== undefined) q.prune(a.last_event_id);
  const pending = q.pending();
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
