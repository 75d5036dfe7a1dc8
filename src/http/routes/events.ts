import { deleteQueue, getEvents, register } from "../../actions/events";
import { endpoint } from "../endpoint";
import { p, Param, t } from "../params";

/** Seconds, or "mobile" (zulip-flutter sends it JSON-encoded, others as plain text). */
const seconds = p.int({ min: 10, max: 7 * 24 * 3600 });
const idleQueueTimeout = new Param<number | "mobile">((raw, n) => (raw === "mobile" || raw === '"mobile"' ? "mobile" : seconds.parse(raw, n)), "integer or \"mobile\"");

export default [
  endpoint("POST", "/register", {
    auth: "optional",
    readOnly: true,
    params: {
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
    },
    run: ({ app, realm, user, args }) => register(app, realm, user, { ...args, narrow: args.narrow as [string, string][] }),
  }),
  endpoint("GET", "/events", {
    params: {
      queue_id: p.str(),
      last_event_id: p.int().optional(),
      dont_block: p.bool().optional(false),
    },
    run: ({ app, user, args }) => getEvents(app, user, args),
  }),
  endpoint("DELETE", "/events", {
    params: { queue_id: p.str() },
    run: ({ app, user, args }) => deleteQueue(app, user, args.queue_id),
  }),
];
