// One event queue per tab: POST /json/register, then GET /json/events long-polled in one loop. When
// the queue is gone (BAD_EVENT_QUEUE_ID, e.g. after a server restart) or the server cannot be reached,
// the app shows "reconnecting", registers again and resyncs: the open list is refetched in place,
// so the compose box's text and the scroll position stay as they were.
import { api, ApiError } from "../api/client";
import { applyEvent, applyInitial, connection } from "./state";

let queueId = "";
let lastEventId = -1;
let generation = 0;
const resyncHooks: (() => Promise<void> | void)[] = [];
export const onResync = (f: () => Promise<void> | void) => resyncHooks.push(f);
export const currentQueueId = () => queueId;

async function register() {
  const r = await api.post("register", {
    apply_markdown: true,
    client_gravatar: true, // gravatar pictures are remote: the app shows initials instead, and register is smaller
    slim_presence: true,
    include_subscribers: false,
    client_capabilities: {
      notification_settings_null: true,
      bulk_message_deletion: true,
      user_avatar_url_field_optional: false,
      stream_typing_notifications: true,
      user_settings_object: true,
      empty_topic_name: true,
      simplified_presence_events: true,
      individual_emoji_changes: true,
    },
  });
  queueId = r.queue_id;
  lastEventId = r.last_event_id;
  applyInitial(r);
  return r;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Registers and starts the loop; resolves once the initial state is in the store. */
export async function startQueue() {
  await register();
  const gen = ++generation;
  void poll(gen);
}

export function stopQueue() {
  generation++;
  if (queueId) void api.delete("events", { queue_id: queueId }).catch(() => {});
  queueId = "";
}

async function poll(gen: number) {
  let failures = 0;
  while (gen === generation) {
    try {
      const r = await api.get<{ events: any[] }>("events", { queue_id: queueId, last_event_id: lastEventId });
      if (gen !== generation) return;
      failures = 0;
      connection.value = "ok";
      for (const e of r.events) {
        lastEventId = Math.max(lastEventId, e.id);
        try {
          applyEvent(e);
        } catch (err) {
          console.error("event", e, err);
        }
      }
    } catch (e) {
      if (gen !== generation) return;
      if (e instanceof ApiError && e.status === 401) return;
      connection.value = "reconnecting";
      if (e instanceof ApiError && e.code === "BAD_EVENT_QUEUE_ID") {
        await reregister(gen);
        continue;
      }
      failures++;
      await sleep(Math.min(1000 * 2 ** Math.min(failures - 1, 4), 15_000) * (0.8 + Math.random() * 0.4));
      // A long outage may have outlived the queue; the next poll says so with BAD_EVENT_QUEUE_ID.
    }
  }
}

async function reregister(gen: number) {
  for (let attempt = 0; gen === generation; attempt++) {
    try {
      await register();
      for (const f of resyncHooks) await f();
      connection.value = "ok";
      return;
    } catch (e) {
      if (e instanceof ApiError && e.status === 401) return;
      await sleep(Math.min(1000 * 2 ** Math.min(attempt, 4), 15_000));
    }
  }
}
