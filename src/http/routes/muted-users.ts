import { muteUser, unmuteUser } from "../../actions/muted-users";
import { endpoint } from "../endpoint";
import { p } from "../../domain/params";

export default [
  endpoint("POST", "/users/me/muted_users/{muted_user_id}", {
    params: { muted_user_id: p.path.int() },
    run: ({ app, user, args }) => muteUser(app, user, args.muted_user_id),
  }),
  endpoint("DELETE", "/users/me/muted_users/{muted_user_id}", {
    params: { muted_user_id: p.path.int() },
    run: ({ app, user, args }) => unmuteUser(app, user, args.muted_user_id),
  }),
];
