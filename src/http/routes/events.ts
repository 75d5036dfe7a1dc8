import { deleteQueue, getEvents, getEventsParams, register, registerParams } from "../../actions/events";
import { endpoint } from "../endpoint";
import { forwarded } from "../forward";
import { p } from "../../domain/params";

export default [
  endpoint("POST", "/register", {
    auth: "optional",
    readOnly: true,
    params: registerParams,
    run: ({ app, realm, user, args }) => register(app, realm, user, args),
  }),
  // Another node's queue (PostgreSQL): the owner answers, one hop away (http/forward.ts).
  endpoint("GET", "/events", {
    params: getEventsParams,
    run: async ({ app, user, args, req }) => (await forwarded(app, req, args.queue_id)) ?? (await getEvents(app, user, args)),
  }),
  endpoint("DELETE", "/events", {
    params: { queue_id: p.str() },
    run: async ({ app, user, args, req }) => (await forwarded(app, req, args.queue_id)) ?? deleteQueue(app, user, args.queue_id),
  }),
];
