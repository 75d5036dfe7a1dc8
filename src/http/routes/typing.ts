import { sendEditTyping, sendTyping, typingParams } from "../../actions/typing";
import { endpoint } from "../endpoint";
import { p } from "../../domain/params";

export default [
  endpoint("POST", "/typing", {
    params: typingParams,
    run: ({ app, user, args }) => sendTyping(app, user, args),
  }),
  endpoint("POST", "/messages/{message_id}/typing", {
    params: { message_id: p.path.int(), op: p.enum(["start", "stop"] as const) },
    run: ({ app, realm, user, args }) => sendEditTyping(app, realm, user, args.message_id, args.op),
  }),
];
