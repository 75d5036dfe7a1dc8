import { addSubmessage, submessageParams } from "../../actions/submessages";
import { endpoint } from "../endpoint";

export default [
  endpoint("POST", "/submessage", {
    params: submessageParams,
    run: ({ app, realm, user, args }) => addSubmessage(app, realm, user, args),
  }),
];
