import { createMultiuseInvite, inviteByEmail, listInvites, resendInvite, revokeInvite, revokeMultiuseInvite } from "../../actions/invites";
import { MAX_WELCOME_TEXT_LENGTH } from "../../domain/invites";
import { ROLES } from "../../domain/roles";
import { endpoint } from "../endpoint";
import { p, t } from "../../domain/params";

/** What every invitation may promise the account it creates. */
const options = {
  invite_expires_in_minutes: p.json(t.nullable(t.int({ min: 1 }))).optional(),
  invite_as: p.intEnum(ROLES).optional(400),
  group_ids: p.intList().optional(() => []),
  include_realm_default_subscriptions: p.bool().optional(false),
  welcome_message_custom_text: p.str({ max: MAX_WELCOME_TEXT_LENGTH }).optional(),
};

export default [
  endpoint("GET", "/invites", { params: {}, run: ({ app, realm, user }) => listInvites(app, realm, user) }),
  endpoint("POST", "/invites", {
    params: { invitee_emails: p.str(), stream_ids: p.intList(), notify_referrer_on_join: p.bool().optional(true), ...options },
    run: ({ app, realm, user, args }) => inviteByEmail(app, realm, user, args),
  }),
  endpoint("POST", "/invites/multiuse", {
    params: { stream_ids: p.intList().optional(() => []), ...options },
    run: ({ app, realm, user, args }) => createMultiuseInvite(app, realm, user, args),
  }),
  endpoint("DELETE", "/invites/{invite_id}", {
    params: { invite_id: p.path.int() },
    run: ({ app, realm, user, args }) => revokeInvite(app, realm, user, args.invite_id),
  }),
  endpoint("DELETE", "/invites/multiuse/{invite_id}", {
    params: { invite_id: p.path.int() },
    run: ({ app, realm, user, args }) => revokeMultiuseInvite(app, realm, user, args.invite_id),
  }),
  endpoint("POST", "/invites/{invite_id}/resend", {
    params: { invite_id: p.path.int() },
    run: ({ app, realm, user, args }) => resendInvite(app, realm, user, args.invite_id),
  }),
];
