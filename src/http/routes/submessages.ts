import { addSubmessage, submessageParams } from "../../actions/submessages";
import { endpoint } from "../endpoint";

export default [
  endpoint("POST", "/submessage", {
    params: submessageParams,
    run: async ({ app, realm, user, args }) => await addSubmessage(app, realm, user, args),
  }),
];
