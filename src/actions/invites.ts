import type { App } from "../context";
import { sendWelcomeTx } from "./welcome";
import { queueMailTx, requireEmail } from "./email";
import { invitationMail } from "../domain/email";
import type { ChannelRow, InviteRow, RealmRow, UserRow } from "../db/schema";
import type { Tx } from "../db/tx";
import {
  botsRefused,
  cannotSubscribeOthers,
  emailInUse,
  guestsRefused,
  insufficientPermission,
  invalidInviteChannel,
  invitationFailed,
  invitationRevoked,
  linkExpired,
  mustBeOwner,
  mustOrganizationAdministrator,
  mustSpecifyLeastOneEmail,
  noSuchInvitation,
  passwordTooShort,
  pleaseEnterValidEmailAddress,
} from "../domain/errors";
import { DEFAULT_INVITE_MINUTES, inviteLink, MAX_WELCOME_TEXT_LENGTH, parseInviteeEmails, toApiInvite } from "../domain/invites";
import { realmUrl } from "../domain/realms";
import { isAdmin, isGuest, ROLE, ROLES, type Role } from "../domain/roles";
import { isValidEmail } from "../domain/users";
import { toRealm, toUsers } from "../events/types";
import { randomToken } from "../lib/random";
import { findChannel, listDefaultChannelIds } from "../store/channels";
import * as store from "../store/invites";
import { hasRealmPermission } from "../store/permissions";
import { addGroupMembers, findUserGroup } from "../store/user-groups";
import { findUserByEmail, listAdminIds } from "../store/users";
import { canAddSubscribers, subscribeUsersTx } from "./subscriptions";
import { groupForUpdate } from "./user-groups";
import { checkEmailAllowed, hashPassword, insertUserTx } from "./users";
import { p, t, type Args } from "../domain/params";
import { accessChannelById } from "../access/channels";

/** What every invitation may promise the account it creates. */
const inviteOptionParams = {
  invite_expires_in_minutes: p.json(t.nullable(t.int({ min: 1 }))).optional(),
  invite_as: p.intEnum(ROLES).optional(400),
  group_ids: p.intList().optional(() => []),
  include_realm_default_subscriptions: p.bool().optional(false),
  welcome_message_custom_text: p.str({ max: MAX_WELCOME_TEXT_LENGTH }).optional(),
};
export const multiuseInviteParams = { stream_ids: p.intList().optional(() => []), ...inviteOptionParams };
export const inviteParams = { invitee_emails: p.str(), stream_ids: p.intList(), notify_referrer_on_join: p.bool().optional(true), ...inviteOptionParams };
type InviteOptions = Args<typeof multiuseInviteParams>;

/** Invitations are for members: guests may not invite, and bots do not use these endpoints. */
function checkInviter(user: UserRow) {
  if (isGuest(user.role)) throw guestsRefused();
  if (user.isBot) throw botsRefused();
}

/** Owners are invited only by owners; other roles above the caller's own need an administrator. */
function checkRole(user: UserRow, invitedAs: Role, requireAdmin: boolean) {
  if (invitedAs === ROLE.owner && user.role !== ROLE.owner) throw mustBeOwner();
  if (requireAdmin && !isAdmin(user.role)) throw mustOrganizationAdministrator();
}

/**
 * The checks every invitation shares, in Zulip's order after the role: channels (each accessible, and a default
 * channel or one the caller may add subscribers to), groups (the caller may add members), then the
 * administrators-only welcome text.
 */
function checkOptions(app: App, realm: RealmRow, user: UserRow, a: InviteOptions) {
  const defaults = new Set(listDefaultChannelIds(app.db, realm.id));
  const channels = a.stream_ids.map((id) => {
    try {
      return accessChannelById(app, user, id, { content: true }).channel;
    } catch {
      throw invalidInviteChannel(id);
    }
  });
  if (channels.some((c) => !defaults.has(c.id) && !canAddSubscribers(app, realm, user, c))) throw cannotSubscribeOthers();
  for (const id of a.group_ids) groupForUpdate(app.db, realm, user, id, ["can_add_members_group"]);
  if (a.welcome_message_custom_text != null && !isAdmin(user.role)) throw mustOrganizationAdministrator();
}

function newInvite(app: App, tx: Tx, realm: RealmRow, user: UserRow, a: InviteOptions, email: string | null, notify = false): InviteRow {
  const minutes = a.invite_expires_in_minutes === undefined ? DEFAULT_INVITE_MINUTES : a.invite_expires_in_minutes;
  return store.insertInvite(tx.db, {
    realmId: realm.id,
    referredBy: user.id,
    isMultiuse: email === null,
    email,
    key: randomToken(24),
    invitedAs: a.invite_as,
    streamIds: [...new Set(a.stream_ids)],
    groupIds: [...new Set(a.group_ids)],
    includeRealmDefaultSubscriptions: a.include_realm_default_subscriptions,
    welcomeMessageCustomText: a.welcome_message_custom_text ?? null,
    notifyReferrerOnJoin: notify,
    dateCreated: app.now(),
    expiresAt: minutes === null ? null : app.now() + minutes * 60,
  });
}

/** Administrators and the inviter hear that the list of invitations changed. */
const invitesChanged = (tx: Tx, realm: RealmRow, referrerId: number) =>
  tx.emit({ type: "invites_changed" }, toUsers([...new Set([...listAdminIds(tx.db, realm.id), referrerId])]));

/** POST /invites/multiuse: a reusable link for whoever the caller shares it with. */
export function createMultiuseInvite(app: App, realm: RealmRow, user: UserRow, a: InviteOptions) {
  checkInviter(user);
  if (!hasRealmPermission(app.db, realm, user, "create_multiuse_invite_group")) throw insufficientPermission();
  // The contract: a link invites to the caller's own role or a more restricted one.
  checkRole(user, a.invite_as, a.invite_as < user.role);
  checkOptions(app, realm, user, a);
  const invite = app.tx((tx) => {
    const row = newInvite(app, tx, realm, user, a, null);
    invitesChanged(tx, realm, user.id);
    return row;
  });
  return { invite_link: inviteLink(realmUrl(app.config.externalUrl, realm.stringId), invite.key) };
}

/**
 * POST /invites: one invitation per address, mailed. Addresses that do not validate stop everything;
 * addresses that already have an account are skipped and reported (INVITATION_FAILED).
 */
export function inviteByEmail(app: App, realm: RealmRow, user: UserRow, a: Args<typeof inviteParams>) {
  checkInviter(user);
  if (!hasRealmPermission(app.db, realm, user, "can_invite_users_group")) throw insufficientPermission();
  // As Zulip: moderators and above are invited by email only by administrators.
  checkRole(user, a.invite_as, a.invite_as <= ROLE.moderator);
  if (!a.invitee_emails.trim()) throw mustSpecifyLeastOneEmail();
  requireEmail(app);
  const emails = parseInviteeEmails(a.invitee_emails);
  checkOptions(app, realm, user, a);
  const invalid: [string, string, boolean][] = [];
  for (const email of emails) {
    if (!isValidEmail(email)) invalid.push([email, "Invalid address.", false]);
    else
      try {
        checkEmailAllowed(app, realm, email);
      } catch {
        invalid.push([email, "Outside your domain.", false]);
      }
  }
  if (invalid.length) throw invitationFailed("invalid", invalid);
  const skipped: [string, string, boolean][] = [];
  const fresh = emails.filter((email) => {
    const existing = findUserByEmail(app.db, realm.id, email);
    if (existing) skipped.push([email, existing.isActive ? "Already has an account." : "Account has been deactivated.", !existing.isActive]);
    return !existing;
  });
  if (!fresh.length) throw invitationFailed("none", skipped);
  app.tx((tx) => {
    for (const email of fresh) mailInvitationTx(app, tx, realm, user, newInvite(app, tx, realm, user, a, email, a.notify_referrer_on_join));
    invitesChanged(tx, realm, user.id);
  });
  if (skipped.length) throw invitationFailed("some", skipped);
  return {};
}

/** GET /invites: open invitations; administrators see everyone's, others their own. */
export function listInvites(app: App, realm: RealmRow, user: UserRow) {
  checkInviter(user);
  const url = realmUrl(app.config.externalUrl, realm.stringId);
  return { invites: store.listOpenInvites(app.db, realm.id, app.now(), isAdmin(user.role) ? undefined : user.id).map((i) => toApiInvite(i, url)) };
}

/** An invitation the caller controls: their own, or (administrators) anyone's below their role's reach. */
function controlledInvite(app: App, realm: RealmRow, user: UserRow, id: number, multiuse: boolean): InviteRow {
  checkInviter(user);
  const invite = store.findInvite(app.db, realm.id, id, multiuse);
  if (!invite) throw noSuchInvitation();
  if (invite.referredBy !== user.id) checkRole(user, invite.invitedAs as Role, true);
  return invite;
}

/** DELETE /invites/{invite_id}. */
export function revokeInvite(app: App, realm: RealmRow, user: UserRow, id: number) {
  const invite = controlledInvite(app, realm, user, id, false);
  if (invite.status !== "active") throw noSuchInvitation();
  app.tx((tx) => {
    store.setInviteStatus(tx.db, invite.id, "revoked");
    invitesChanged(tx, realm, invite.referredBy);
  });
  return {};
}

/** DELETE /invites/multiuse/{invite_id}. */
export function revokeMultiuseInvite(app: App, realm: RealmRow, user: UserRow, id: number) {
  const invite = controlledInvite(app, realm, user, id, true);
  if (invite.status === "revoked") throw invitationRevoked();
  app.tx((tx) => {
    store.setInviteStatus(tx.db, invite.id, "revoked");
    invitesChanged(tx, realm, invite.referredBy);
  });
  return {};
}

/** POST /invites/{invite_id}/resend: mails it again and restarts its clock. */
export function resendInvite(app: App, realm: RealmRow, user: UserRow, id: number) {
  const invite = controlledInvite(app, realm, user, id, false);
  if (invite.status !== "active") throw noSuchInvitation();
  requireEmail(app);
  app.tx((tx) => {
    store.touchInvite(tx.db, invite.id, app.now());
    mailInvitationTx(app, tx, realm, user, invite);
    invitesChanged(tx, realm, invite.referredBy);
  });
  return {};
}

/** The invitation email, into the outbox inside the caller's transaction. */
function mailInvitationTx(app: App, tx: Tx, realm: RealmRow, from: UserRow, invite: InviteRow) {
  const days = invite.expiresAt === null ? null : Math.max(1, Math.round((invite.expiresAt - app.now()) / 86400));
  const link = inviteLink(realmUrl(app.config.externalUrl, realm.stringId), invite.key);
  queueMailTx(
    app,
    tx,
    realm.id,
    "invitation",
    invitationMail({ to: invite.email!, org: realm.name, inviter: from.fullName, inviterEmail: from.email, link, expiresInDays: days }),
  );
}

/** An invitation that can still be used, by its link's key, in the realm the link is for. */
export function openInvitation(app: App, realm: RealmRow, key: string): InviteRow {
  const invite = store.findInviteByKey(app.db, key);
  if (!invite || invite.realmId !== realm.id || invite.status !== "active" || (invite.expiresAt !== null && invite.expiresAt <= app.now())) throw linkExpired();
  return invite;
}

/**
 * Accepting an invitation: a new account with the invited role, subscribed to the invitation's channels
 * (and the realm's default channels when it says so) and put in its groups. An email invitation is used
 * up; a reusable link stays open.
 */
export async function acceptInvitation(app: App, realm: RealmRow, key: string, a: { email?: string; full_name: string; password: string }) {
  const invite = openInvitation(app, realm, key);
  const email = invite.email ?? (a.email ?? "").trim();
  if (!isValidEmail(email)) throw pleaseEnterValidEmailAddress();
  checkEmailAllowed(app, realm, email);
  if (findUserByEmail(app.db, realm.id, email)) throw emailInUse(email);
  if (a.password.length < 6) throw passwordTooShort();
  const passwordHash = await hashPassword(a.password);
  return app.tx((tx) => {
    const again = openInvitation(app, realm, key); // the hash took a while: still open?
    const user = insertUserTx(app, tx, realm, { email, fullName: a.full_name, role: again.invitedAs as Role }, passwordHash);
    const channelIds = new Set(again.streamIds);
    if (again.includeRealmDefaultSubscriptions) for (const id of listDefaultChannelIds(tx.db, realm.id)) channelIds.add(id);
    const channels = [...channelIds].map((id) => findChannel(tx.db, id)).filter((c): c is ChannelRow => !!c && c.realmId === realm.id && !c.isArchived);
    // Subscription itself is messaging's: the same step that announces subscriptions everywhere else.
    if (channels.length) subscribeUsersTx(app, tx, realm, channels, [user]);
    for (const gid of again.groupIds) {
      const g = findUserGroup(tx.db, realm.id, gid);
      if (!g || g.deactivated) continue;
      addGroupMembers(tx.db, g.id, [user.id]);
      tx.emit({ type: "user_group", op: "add_members", group_id: g.id, user_ids: [user.id] }, toRealm(realm.id));
    }
    if (!again.isMultiuse) store.setInviteStatus(tx.db, again.id, "used");
    invitesChanged(tx, realm, again.referredBy);
    sendWelcomeTx(app, tx, realm, user, again.welcomeMessageCustomText);
    return user;
  });
}
