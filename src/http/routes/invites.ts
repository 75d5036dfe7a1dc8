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
  endpoint("GET", "/invites", { params: {}, run: async ({ app, realm, user }) => await listInvites(app, realm, user) }),
  endpoint("POST", "/invites", {
    params: inviteParams,
    run: async ({ app, realm, user, args }) => await inviteByEmail(app, realm, user, args),
  }),
  endpoint("POST", "/invites/multiuse", {
    params: multiuseInviteParams,
    run: async ({ app, realm, user, args }) => await createMultiuseInvite(app, realm, user, args),
  }),
  endpoint("DELETE", "/invites/{invite_id}", {
    params: { invite_id: p.path.int() },
    run: async ({ app, realm, user, args }) => await revokeInvite(app, realm, user, args.invite_id),
  }),
  endpoint("DELETE", "/invites/multiuse/{invite_id}", {
    params: { invite_id: p.path.int() },
    run: async ({ app, realm, user, args }) => await revokeMultiuseInvite(app, realm, user, args.invite_id),
  }),
  endpoint("POST", "/invites/{invite_id}/resend", {
    params: { invite_id: p.path.int() },
    run: async ({ app, realm, user, args }) => await resendInvite(app, realm, user, args.invite_id),
  }),
];
