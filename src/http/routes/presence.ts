import { getRealmPresence, getUserPresence, presenceParams, updatePresence } from "../../actions/presence";
import { endpoint } from "../endpoint";
import { p } from "../../domain/params";

export default [
  endpoint("POST", "/users/me/presence", {
    params: presenceParams,
    run: ({ app, user, args }) => updatePresence(app, user, args),
  }),
  endpoint("GET", "/realm/presence", {
    params: {},
    run: ({ app, realm }) => getRealmPresence(app, realm),
  }),
  endpoint("GET", "/users/{user_id_or_email}/presence", {
    params: { user_id_or_email: p.path.str() },
    run: ({ app, user, args }) => getUserPresence(app, user, args.user_id_or_email),
  }),
];
