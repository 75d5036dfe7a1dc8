import { getStatus, statusParams, updateStatus, updateStatusOf } from "../../actions/user-status";
import { endpoint } from "../endpoint";
import { p } from "../../domain/params";

export default [
  endpoint("GET", "/users/me/status", { params: {}, run: ({ app, user }) => getStatus(app, user, user.id) }),
  endpoint("POST", "/users/me/status", { params: statusParams, run: ({ app, realm, user, args }) => updateStatus(app, realm, user, args) }),
  endpoint("GET", "/users/{user_id}/status", {
    params: { user_id: p.path.int() },
    run: ({ app, user, args }) => getStatus(app, user, args.user_id),
  }),
  endpoint("POST", "/users/{user_id}/status", {
    params: { user_id: p.path.int(), ...statusParams },
    run: ({ app, realm, user, args }) => updateStatusOf(app, realm, user, args.user_id, args),
  }),
];
