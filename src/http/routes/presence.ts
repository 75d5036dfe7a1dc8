import { getRealmPresence, getUserPresence, updatePresence } from "../../actions/presence";
import { endpoint } from "../endpoint";
import { p } from "../../domain/params";

export default [
  endpoint("POST", "/users/me/presence", {
    params: {
      status: p.str(),
      ping_only: p.bool().optional(false),
      new_user_input: p.bool().optional(false),
      slim_presence: p.bool().optional(false),
      last_update_id: p.int().optional(),
      history_limit_days: p.int({ min: 0 }).optional(),
    },
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
