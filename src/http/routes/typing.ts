import { sendEditTyping, sendTyping } from "../../actions/typing";
import { endpoint } from "../endpoint";
import { p } from "../../domain/params";

export default [
  endpoint("POST", "/typing", {
    params: {
      type: p.enum(["direct", "private", "stream", "channel"] as const).optional("direct" as const),
      op: p.enum(["start", "stop"] as const),
      to: p.intList().optional(),
      stream_id: p.int().optional(),
      topic: p.str().optional(),
    },
    run: ({ app, user, args }) => sendTyping(app, user, args),
  }),
  endpoint("POST", "/messages/{message_id}/typing", {
    params: { message_id: p.path.int(), op: p.enum(["start", "stop"] as const) },
    run: ({ app, realm, user, args }) => sendEditTyping(app, realm, user, args.message_id, args.op),
  }),
];
