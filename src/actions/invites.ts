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
import { mapInOrder, someInOrder, filterInOrder } from "../lib/in-order";

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
async function checkOptions(app: App, realm: RealmRow, user: UserRow, a: InviteOptions) {
  const defaults = new Set(await listDefaultChannelIds(app.db, realm.id));
  const channels = await mapInOrder(a.stream_ids, async (id) => {
    try {
      return (await accessChannelById(app, user, id, { content: true })).channel;
    } catch {
      throw invalidInviteChannel(id);
    }
  });
  if (await someInOrder(channels, async (c) => !defaults.has(c.id) && !(await canAddSubscribers(app, realm, user, c)))) throw cannotSubscribeOthers();
  for (const id of a.group_ids) await groupForUpdate(app.db, realm, user, id, ["can_add_members_group"]);
  if (a.welcome_message_custom_text != null && !isAdmin(user.role)) throw mustOrganizationAdministrator();
}

async function newInvite(app: App, tx: Tx, realm: RealmRow, user: UserRow, a: InviteOptions, email: string | null, notify = false): Promise<InviteRow> {
  const minutes = a.invite_expires_in_minutes === undefined ? DEFAULT_INVITE_MINUTES : a.invite_expires_in_minutes;
  return await store.insertInvite(tx.db, {
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
const invitesChanged = async (tx: Tx, realm: RealmRow, referrerId: number) =>
  tx.emit({ type: "invites_changed" }, toUsers([...new Set([...(await listAdminIds(tx.db, realm.id)), referrerId])]));

/** POST /invites/multiuse: a reusable link for whoever the caller shares it with. */
export async function createMultiuseInvite(app: App, realm: RealmRow, user: UserRow, a: InviteOptions) {
  checkInviter(user);
  if (!(await hasRealmPermission(app.db, realm, user, "create_multiuse_invite_group"))) throw insufficientPermission();
  // The contract: a link invites to the caller's own role or a more restricted one.
  checkRole(user, a.invite_as, a.invite_as < user.role);
  await checkOptions(app, realm, user, a);
  const invite = await app.tx(async (tx) => {
    const row = await newInvite(app, tx, realm, user, a, null);
    await invitesChanged(tx, realm, user.id);
    return row;
  });
  return { invite_link: inviteLink(realmUrl(app.config.externalUrl, realm.stringId), invite.key) };
}

/**
 * POST /invites: one invitation per address, mailed. Addresses that do not validate stop everything;
 * addresses that already have an account are skipped and reported (INVITATION_FAILED).
 */
export async function inviteByEmail(app: App, realm: RealmRow, user: UserRow, a: Args<typeof inviteParams>) {
  checkInviter(user);
  if (!(await hasRealmPermission(app.db, realm, user, "can_invite_users_group"))) throw insufficientPermission();
  // As Zulip: moderators and above are invited by email only by administrators.
  checkRole(user, a.invite_as, a.invite_as <= ROLE.moderator);
  if (!a.invitee_emails.trim()) throw mustSpecifyLeastOneEmail();
  requireEmail(app);
  const emails = parseInviteeEmails(a.invitee_emails);
  await checkOptions(app, realm, user, a);
  const invalid: [string, string, boolean][] = [];
  for (const email of emails) {
    if (!isValidEmail(email)) invalid.push([email, "Invalid address.", false]);
    else
      try {
        await checkEmailAllowed(app, realm, email);
      } catch {
        invalid.push([email, "Outside your domain.", false]);
      }
  }
  if (invalid.length) throw invitationFailed("invalid", invalid);
  const skipped: [string, string, boolean][] = [];
  const fresh = await filterInOrder(emails, async (email) => {
    const existing = await findUserByEmail(app.db, realm.id, email);
    if (existing) skipped.push([email, existing.isActive ? "Already has an account." : "Account has been deactivated.", !existing.isActive]);
    return !existing;
  });
  if (!fresh.length) throw invitationFailed("none", skipped);
  await app.tx(async (tx) => {
    for (const email of fresh) await mailInvitationTx(app, tx, realm, user, await newInvite(app, tx, realm, user, a, email, a.notify_referrer_on_join));
    await invitesChanged(tx, realm, user.id);
  });
  if (skipped.length) throw invitationFailed("some", skipped);
  return {};
}

/** GET /invites: open invitations; administrators see everyone's, others their own. */
export async function listInvites(app: App, realm: RealmRow, user: UserRow) {
  checkInviter(user);
  const url = realmUrl(app.config.externalUrl, realm.stringId);
  return { invites: (await store.listOpenInvites(app.db, realm.id, app.now(), isAdmin(user.role) ? undefined : user.id)).map((i) => toApiInvite(i, url)) };
}

/** An invitation the caller controls: their own, or (administrators) anyone's below their role's reach. */
async function controlledInvite(app: App, realm: RealmRow, user: UserRow, id: number, multiuse: boolean): Promise<InviteRow> {
  checkInviter(user);
  const invite = await store.findInvite(app.db, realm.id, id, multiuse);
  if (!invite) throw noSuchInvitation();
  if (invite.referredBy !== user.id) checkRole(user, invite.invitedAs as Role, true);
  return invite;
}

/** DELETE /invites/{invite_id}. */
export async function revokeInvite(app: App, realm: RealmRow, user: UserRow, id: number) {
  const invite = await controlledInvite(app, realm, user, id, false);
  if (invite.status !== "active") throw noSuchInvitation();
  await app.tx(async (tx) => {
    await store.setInviteStatus(tx.db, invite.id, "revoked");
    await invitesChanged(tx, realm, invite.referredBy);
  });
  return {};
}

/** DELETE /invites/multiuse/{invite_id}. */
export async function revokeMultiuseInvite(app: App, realm: RealmRow, user: UserRow, id: number) {
  const invite = await controlledInvite(app, realm, user, id, true);
  if (invite.status === "revoked") throw invitationRevoked();
  await app.tx(async (tx) => {
    await store.setInviteStatus(tx.db, invite.id, "revoked");
    await invitesChanged(tx, realm, invite.referredBy);
  });
  return {};
}

/** POST /invites/{invite_id}/resend: mails it again and restarts its clock. */
export async function resendInvite(app: App, realm: RealmRow, user: UserRow, id: number) {
  const invite = await controlledInvite(app, realm, user, id, false);
  if (invite.status !== "active") throw noSuchInvitation();
  requireEmail(app);
  await app.tx(async (tx) => {
    await store.touchInvite(tx.db, invite.id, app.now());
    await mailInvitationTx(app, tx, realm, user, invite);
    await invitesChanged(tx, realm, invite.referredBy);
  });
  return {};
}

/** The invitation email, into the outbox inside the caller's transaction. */
async function mailInvitationTx(app: App, tx: Tx, realm: RealmRow, from: UserRow, invite: InviteRow) {
  const days = invite.expiresAt === null ? null : Math.max(1, Math.round((invite.expiresAt - app.now()) / 86400));
  const link = inviteLink(realmUrl(app.config.externalUrl, realm.stringId), invite.key);
  await queueMailTx(
    app,
    tx,
    realm.id,
    "invitation",
    invitationMail({ to: invite.email!, org: realm.name, inviter: from.fullName, inviterEmail: from.email, link, expiresInDays: days }),
  );
}

/** An invitation that can still be used, by its link's key, in the realm the link is for. */
export async function openInvitation(app: App, realm: RealmRow, key: string): Promise<InviteRow> {
  const invite = await store.findInviteByKey(app.db, key);
  if (!invite || invite.realmId !== realm.id || invite.status !== "active" || (invite.expiresAt !== null && invite.expiresAt <= app.now())) throw linkExpired();
  return invite;
}

/**
 * Accepting an invitation: a new account with the invited role, subscribed to the invitation's channels
 * (and the realm's default channels when it says so) and put in its groups. An email invitation is used
 * up; a reusable link stays open.
 */
export async function acceptInvitation(app: App, realm: RealmRow, key: string, a: { email?: string; full_name: string; password: string }) {
  const invite = await openInvitation(app, realm, key);
  const email = invite.email ?? (a.email ?? "").trim();
  if (!isValidEmail(email)) throw pleaseEnterValidEmailAddress();
  await checkEmailAllowed(app, realm, email);
  if (await findUserByEmail(app.db, realm.id, email)) throw emailInUse(email);
  if (a.password.length < 6) throw passwordTooShort();
  const passwordHash = await hashPassword(a.password);
  return await app.tx(async (tx) => {
    const again = await openInvitation(app, realm, key); // the hash took a while: still open?
    const user = await insertUserTx(app, tx, realm, { email, fullName: a.full_name, role: again.invitedAs as Role }, passwordHash);
    const channelIds = new Set(again.streamIds);
    if (again.includeRealmDefaultSubscriptions) for (const id of await listDefaultChannelIds(tx.db, realm.id)) channelIds.add(id);
    const channels = (await mapInOrder(channelIds, async (id) => await findChannel(tx.db, id))).filter(
      (c): c is ChannelRow => !!c && c.realmId === realm.id && !c.isArchived,
    );
    // Subscription itself is messaging's: the same step that announces subscriptions everywhere else.
    if (channels.length) await subscribeUsersTx(app, tx, realm, channels, [user]);
    for (const gid of again.groupIds) {
      const g = await findUserGroup(tx.db, realm.id, gid);
      if (!g || g.deactivated) continue;
      await addGroupMembers(tx.db, g.id, [user.id]);
      tx.emit({ type: "user_group", op: "add_members", group_id: g.id, user_ids: [user.id] }, toRealm(realm.id));
    }
    if (!again.isMultiuse) await store.setInviteStatus(tx.db, again.id, "used");
    await invitesChanged(tx, realm, again.referredBy);
    await sendWelcomeTx(app, tx, realm, user, again.welcomeMessageCustomText);
    return user;
  });
}
