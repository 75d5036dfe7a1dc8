import { createUserByAdmin, createUserParams, deactivateOwnAccount, deactivateUserByAdmin, getUser, getUserByEmail, listRealmUsers, ownUser, reactivateUser, updateUserByAdmin, updateUserByEmail } from "../../actions/users";
import { ROLES } from "../../domain/roles";
import { endpoint } from "../endpoint";
import { p, t } from "../../domain/params";

const view = {
  client_gravatar: p.bool().optional(true),
  include_custom_profile_fields: p.bool().optional(false),
};

/** What an administrator may change of a user (PATCH /users/{user_id} or /users/{email}). */
const userChange = {
  full_name: p.str().optional(),
  role: p.intEnum(ROLES).optional(),
  new_email: p.str().optional(),
  profile_data: p.json(t.list(t.object({ id: t.int(), value: t.any() }))).optional(),
};

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
    params: { ...view, user_ids: p.intList().optional() },
    run: ({ app, user, args }) => listRealmUsers(app, user, args),
  }),
  endpoint("POST", "/users", {
    params: createUserParams,
    run: ({ app, realm, user, args }) => createUserByAdmin(app, realm, user, args),
  }),
  endpoint("GET", "/users/{user_id}", {
    params: { user_id: p.path.int(), ...view },
    run: ({ app, user, args }) => getUser(app, user, args.user_id, args),
  }),
  endpoint("GET", "/users/{email}", {
    params: { email: p.path.str(), ...view },
    run: ({ app, user, args }) => getUserByEmail(app, user, args.email, args),
  }),
  endpoint("PATCH", "/users/{user_id}", {
    params: { user_id: p.path.int(), ...userChange },
    run: ({ app, realm, user, args }) => updateUserByAdmin(app, realm, user, args.user_id, args),
  }),
  endpoint("PATCH", "/users/{email}", {
    params: { email: p.path.str(), ...userChange },
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
