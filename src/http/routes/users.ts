import {
  createUserByAdmin,
  createUserParams,
  deactivateOwnAccount,
  deactivateUserByAdmin,
  getUser,
  getUserByEmail,
  listRealmUsers,
  listUsersParams,
  ownUser,
  reactivateUser,
  updateUserByAdmin,
  updateUserByEmail,
  userPatchParams,
  userViewParams,
} from "../../actions/users";
import { endpoint } from "../endpoint";
import { p } from "../../domain/params";

export default [
  endpoint("GET", "/users/me", {
    params: {},
    run: ({ app, user }) => ownUser(app, user),
  }),
  endpoint("DELETE", "/users/me", {
    params: {},
    run: ({ app, user }) => deactivateOwnAccount(app, user),
  }),
  endpoint("GET", "/users", {
    params: listUsersParams,
    run: ({ app, user, args }) => listRealmUsers(app, user, args),
  }),
  endpoint("POST", "/users", {
    params: createUserParams,
    run: ({ app, realm, user, args }) => createUserByAdmin(app, realm, user, args),
  }),
  endpoint("GET", "/users/{user_id}", {
    params: { user_id: p.path.int(), ...userViewParams },
    run: ({ app, user, args }) => getUser(app, user, args.user_id, args),
  }),
  endpoint("GET", "/users/{email}", {
    params: { email: p.path.str(), ...userViewParams },
    run: ({ app, user, args }) => getUserByEmail(app, user, args.email, args),
  }),
  endpoint("PATCH", "/users/{user_id}", {
    params: { user_id: p.path.int(), ...userPatchParams },
    run: ({ app, realm, user, args }) => updateUserByAdmin(app, realm, user, args.user_id, args),
  }),
  endpoint("PATCH", "/users/{email}", {
    params: { email: p.path.str(), ...userPatchParams },
    run: ({ app, realm, user, args }) => updateUserByEmail(app, realm, user, args.email, args),
  }),
  endpoint("DELETE", "/users/{user_id}", {
    params: { user_id: p.path.int(), deactivation_notification_comment: p.str({ max: 2000 }).optional() },
    run: ({ app, user, args }) => deactivateUserByAdmin(app, user, args.user_id),
  }),
  endpoint("POST", "/users/{user_id}/reactivate", {
    params: { user_id: p.path.int() },
    run: ({ app, user, args }) => reactivateUser(app, user, args.user_id),
  }),
];
