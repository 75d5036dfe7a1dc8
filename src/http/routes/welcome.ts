import { sendTestWelcome } from "../../actions/welcome";
import { endpoint } from "../endpoint";
import { p } from "../../domain/params";

export default [
  endpoint("POST", "/realm/test_welcome_bot_custom_message", {
    params: { welcome_message_custom_text: p.str({ max: 8000 }) },
    run: ({ app, realm, user, args }) => sendTestWelcome(app, realm, user, args.welcome_message_custom_text),
  }),
];
