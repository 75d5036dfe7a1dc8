import { getRealmPresence, getUserPresence, presenceParams, updatePresence } from "../../actions/presence";
import { endpoint } from "../endpoint";
import { p } from "../../domain/params";

export default [
  endpoint("POST", "/users/me/presence", {
    params: presenceParams,
    run: async ({ app, user, args }) => await updatePresence(app, user, args),
  }),
  endpoint("GET", "/realm/presence", {
    params: {},
    run: async ({ app, realm }) => await getRealmPresence(app, realm),
  }),
  endpoint("GET", "/users/{user_id_or_email}/presence", {
    params: { user_id_or_email: p.path.str() },
    run: async ({ app, user, args }) => await getUserPresence(app, user, args.user_id_or_email),
  }),
];
