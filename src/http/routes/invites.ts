import {
  createMultiuseInvite,
  inviteByEmail,
  inviteParams,
  listInvites,
  multiuseInviteParams,
  resendInvite,
  revokeInvite,
  revokeMultiuseInvite,
} from "../../actions/invites";
import { endpoint } from "../endpoint";
import { p } from "../../domain/params";

export default [
  endpoint("GET", "/invites", { params: {}, run: ({ app, realm, user }) => listInvites(app, realm, user) }),
  endpoint("POST", "/invites", {
    params: inviteParams,
    run: ({ app, realm, user, args }) => inviteByEmail(app, realm, user, args),
  }),
  endpoint("POST", "/invites/multiuse", {
    params: multiuseInviteParams,
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
