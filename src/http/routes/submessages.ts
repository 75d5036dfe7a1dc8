import { addSubmessage } from "../../actions/submessages";
import { endpoint } from "../endpoint";
import { p } from "../params";

export default [
  endpoint("POST", "/submessage", {
    params: { message_id: p.int(), msg_type: p.str(), content: p.str() },
    run: ({ app, realm, user, args }) => addSubmessage(app, realm, user, args),
  }),
];
