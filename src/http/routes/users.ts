import { getUser, getUserByEmail, listRealmUsers, ownUser } from "../../actions/users";
import { endpoint } from "../endpoint";
import { p } from "../params";

const view = {
  client_gravatar: p.bool().optional(true),
  include_custom_profile_fields: p.bool().optional(false),
};

export default [
  endpoint("GET", "/users/me", {
    params: {},
    run: ({ app, user }) => ownUser(app, user),
  }),
  endpoint("GET", "/users", {
    params: { ...view, user_ids: p.intList().optional() },
    run: ({ app, user, args }) => listRealmUsers(app, user, args),
  }),
  endpoint("GET", "/users/{user_id}", {
    params: { user_id: p.path.int(), ...view },
    run: ({ app, user, args }) => getUser(app, user, args.user_id, args),
  }),
  endpoint("GET", "/users/{email}", {
    params: { email: p.path.str(), ...view },
    run: ({ app, user, args }) => getUserByEmail(app, user, args.email, args),
  }),
];
