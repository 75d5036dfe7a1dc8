import { deleteQueue, getEvents, getEventsParams, register, registerParams } from "../../actions/events";
import { endpoint } from "../endpoint";
import { p } from "../../domain/params";

export default [
  endpoint("POST", "/register", {
    auth: "optional",
    readOnly: true,
    params: registerParams,
    run: ({ app, realm, user, args }) => register(app, realm, user, args),
  }),
  endpoint("GET", "/events", { params: getEventsParams, run: ({ app, user, args }) => getEvents(app, user, args) }),
  endpoint("DELETE", "/events", {
    params: { queue_id: p.str() },
    run: ({ app, user, args }) => deleteQueue(app, user, args.queue_id),
  }),
];
