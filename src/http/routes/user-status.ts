import { getStatus, statusParams, updateStatus, updateStatusOf } from "../../actions/user-status";
import { endpoint } from "../endpoint";
import { p } from "../../domain/params";

export default [
  endpoint("GET", "/users/me/status", { params: {}, run: async ({ app, user }) => await getStatus(app, user, user.id) }),
  endpoint("POST", "/users/me/status", { params: statusParams, run: async ({ app, realm, user, args }) => await updateStatus(app, realm, user, args) }),
  endpoint("GET", "/users/{user_id}/status", {
    params: { user_id: p.path.int() },
    run: async ({ app, user, args }) => await getStatus(app, user, args.user_id),
  }),
  endpoint("POST", "/users/{user_id}/status", {
    params: { user_id: p.path.int(), ...statusParams },
    run: async ({ app, realm, user, args }) => await updateStatusOf(app, realm, user, args.user_id, args),
  }),
];
