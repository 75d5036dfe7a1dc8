import { avatarUrl, toApiUser } from "../../domain/users";
import { isAdmin, isGuest, isModerator, isOwner } from "../../domain/roles";
import { listUsers } from "../../store/users";
import type { StateBuilder } from "./types";

/** The `realm_user` fetch type: the realm's users and the caller's own identity. */
export const realmUserState: StateBuilder = ({ app, realm, user, opts }) => {
  const view = { externalUrl: app.config.externalUrl, clientGravatar: opts.clientGravatar, profileData: true };
  const all = listUsers(app.db, realm.id);
  const state: Record<string, unknown> = {
    realm_users: all.filter((u) => u.isActive).map((u) => toApiUser(u, view)),
    realm_non_active_users: all.filter((u) => !u.isActive).map((u) => toApiUser(u, view)),
    cross_realm_bots: [],
  };
  if (!user) return state;
  const url = avatarUrl(user, app.config.externalUrl);
  return {
    ...state,
    user_id: user.id,
    email: user.email,
    delivery_email: user.email,
    full_name: user.fullName,
    avatar_source: user.avatarSource,
    avatar_url: url,
    avatar_url_medium: url,
    is_admin: isAdmin(user.role),
    is_owner: isOwner(user.role),
    is_moderator: isModerator(user.role),
    is_guest: isGuest(user.role),
    can_create_streams: !isGuest(user.role),
    can_create_public_streams: !isGuest(user.role),
    can_create_private_streams: !isGuest(user.role),
    can_create_web_public_streams: isOwner(user.role),
    can_subscribe_other_users: !isGuest(user.role),
    can_invite_others_to_realm: isAdmin(user.role),
  };
};
