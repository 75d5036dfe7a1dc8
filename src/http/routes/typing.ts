import { sendEditTyping, sendTyping, typingParams } from "../../actions/typing";
import { endpoint } from "../endpoint";
import { p } from "../../domain/params";

export default [
  endpoint("POST", "/typing", {
    params: typingParams,
    run: async ({ app, user, args }) => await sendTyping(app, user, args),
  }),
  endpoint("POST", "/messages/{message_id}/typing", {
    params: { message_id: p.path.int(), op: p.enum(["start", "stop"] as const) },
    run: async ({ app, realm, user, args }) => await sendEditTyping(app, realm, user, args.message_id, args.op),
  }),
];
