import { isSystemBot } from "../domain/bots";
import type { App } from "../context";
import type { Db } from "../db/client";
import type { ChannelRow, RealmRow, UserRow } from "../db/schema";
import type { Tx } from "../db/tx";
import { writePendingRows, startDeliveries } from "../store/lazy-delivery";
import { forgetRecipients } from "./messages";
import {
  cannotReactivateBotWhoseOwner,
  emailInUse,
  emailNotAllowedOrganization,
  insufficientPermission,
  invalidEmailAddress,
  invalidNewEmailAddress,
  invalidParam,
  invalidRole,
  lastOwner,
  lastUser,
  mustBeAdmin,
  mustBeOwner,
  noSuchUser,
  ownerPermissionCannotBeRemoved,
  passwordTooShort,
  targetUserDeactivated,
  userAlreadyActive,
  userAlreadyDeactivated,
} from "../domain/errors";
import { emailInDomains } from "../domain/realm-domains";
import { realmSetting, withSetting } from "../domain/realm-settings";
import { USER_SETTINGS } from "../domain/user-settings";
import { findRealmUserDefaults } from "../store/user-settings";
import { isAdmin, isOwner, isRole, ROLE, ROLES, SYSTEM_GROUPS, type Role } from "../domain/roles";
import { checkFullName, isValidEmail, toApiUser } from "../domain/users";
import { toRealm } from "../events/types";
import { randomToken } from "../lib/random";
import * as store from "../store/users";
import { emitUserAdded } from "./user-added";
import { addGroupMembers, listDirectMemberIds, listGroupIdsOfUser, listSystemGroups, removeGroupMembers } from "../store/user-groups";
import { findRealmById } from "../store/realms";
import { listRealmDomains } from "../store/realm-domains";
import { findChannel, listDefaultChannelIds } from "../store/channels";
import { subscribeUsersTx } from "./subscriptions";
import { applyProfileData, planProfileData } from "./profile-fields";
import { profileDataOfUser, realmProfileData } from "../serializers/profile-fields";
import { botAudience, botEvent } from "../serializers/bots";
import { announceSettingsNamingUserTx } from "./user-groups";
import { revokeSessionsTx } from "./sessions";
import { p, t, type Args } from "../domain/params";
import { mapInOrder } from "../lib/in-order";

export interface NewUser {
  email: string;
  fullName: string;
  role?: Role;
  password?: string | null;
  isBot?: boolean;
  botType?: number | null;
  botOwnerId?: number | null;
}

export const hashPassword = (password: string) => Bun.password.hash(password, { algorithm: "argon2id" });

export async function checkNewUser(app: App, realm: RealmRow, u: NewUser) {
  if (!isValidEmail(u.email)) throw invalidEmailAddress(u.email);
  const name = checkFullName(u.fullName);
  if (!name.ok) throw invalidParam(name.msg);
  if (u.role !== undefined && !isRole(u.role)) throw invalidRole();
  if (await store.findUserByEmail(app.db, realm.id, u.email)) throw emailInUse(u.email);
}

/** Creates a user (hashing the password first, outside the transaction) and announces it to the realm. */
export async function createUser(app: App, realm: RealmRow, u: NewUser): Promise<UserRow> {
  await checkNewUser(app, realm, u);
  const passwordHash = u.password ? await hashPassword(u.password) : null;
  return await app.tx(async (tx) => await insertUserTx(app, tx, realm, u, passwordHash));
}

/** The transactional half of createUser, for actions that create users inside a larger change. */
export async function insertUserTx(app: App, tx: Tx, realm: RealmRow, u: NewUser, passwordHash: string | null): Promise<UserRow> {
  if (await store.findUserByEmail(tx.db, realm.id, u.email)) throw emailInUse(u.email);
  const row = await store.insertUser(tx.db, {
    realmId: realm.id,
    email: u.email,
    fullName: checkFullName(u.fullName).ok ? u.fullName.trim() : u.fullName,
    role: u.role ?? ROLE.member,
    isBot: u.isBot ?? false,
    botType: u.botType ?? null,
    botOwnerId: u.botOwnerId ?? null,
    apiKey: randomToken(32),
    passwordHash,
    dateJoined: app.now(),
    settings: await initialUserSettings(tx.db, realm),
  });
  await syncRoleGroups(tx, row, app.now());
  await emitUserAdded(app, tx, realm, row);
  return row;
}

/**
 * Puts a user in exactly the system groups of their role and tells the realm which group memberships
 * changed (a new user joins theirs; a role change moves them).
 */
export async function syncRoleGroups(tx: Tx, user: UserRow, now: number) {
  const groups = await listSystemGroups(tx.db, user.realmId);
  const direct = new Set(await listGroupIdsOfUser(tx.db, user.id));
  const realm = (await findRealmById(tx.db, user.realmId))!;
  for (const def of SYSTEM_GROUPS) {
    const g = groups.find((x) => x.name === def.name);
    if (!g) continue;
    const belongs = (def.roles as readonly number[]).includes(user.role) && (def.name !== "role:fullmembers" || isFullMember(realm, user, now));
    if (belongs === direct.has(g.id)) continue;
    if (belongs) await addGroupMembers(tx.db, g.id, [user.id]);
    else await removeGroupMembers(tx.db, g.id, [user.id]);
    tx.emit({ type: "user_group", op: belongs ? "add_members" : "remove_members", group_id: g.id, user_ids: [user.id] }, toRealm(user.realmId));
  }
}

/** Members count as full members once their account is waiting_period_threshold days old. */
const isFullMember = (realm: RealmRow, user: UserRow, now: number) =>
  now - user.dateJoined >= (realmSetting(realm, "waiting_period_threshold") as number) * 86400;

/**
 * Re-checks role:fullmembers for a realm's members (after the threshold changes, and now and then as
 * accounts age), with the usual user_group events; returns how many memberships changed.
 */
export async function syncFullMembers(app: App, realm: RealmRow): Promise<number> {
  const members = (await store.listUsers(app.db, realm.id)).filter((u) => u.isActive && u.role === ROLE.member);
  const group = (await listSystemGroups(app.db, realm.id)).find((g) => g.name === "role:fullmembers");
  if (!group || !members.length) return 0;
  const inGroup = new Set(await listDirectMemberIds(app.db, group.id, false));
  const now = app.now();
  const add = members.filter((u) => !inGroup.has(u.id) && isFullMember(realm, u, now)).map((u) => u.id);
  const remove = members.filter((u) => inGroup.has(u.id) && !isFullMember(realm, u, now)).map((u) => u.id);
  if (!add.length && !remove.length) return 0;
  await app.tx(async (tx) => {
    if (add.length) {
      await addGroupMembers(tx.db, group.id, add);
      tx.emit({ type: "user_group", op: "add_members", group_id: group.id, user_ids: add }, toRealm(realm.id));
    }
    if (remove.length) {
      await removeGroupMembers(tx.db, group.id, remove);
      tx.emit({ type: "user_group", op: "remove_members", group_id: group.id, user_ids: remove }, toRealm(realm.id));
    }
  });
  return add.length + remove.length;
}

/** A new API key; the old one stops working at once and the user's event queues are dropped. */
export async function regenerateApiKey(app: App, user: UserRow): Promise<string> {
  const apiKey = randomToken(32);
  await app.tx(async (tx) => await store.updateUser(tx.db, user.id, { apiKey }));
  app.revoke({ userId: user.id });
  return apiKey;
}

export async function setPassword(app: App, user: UserRow, password: string) {
  checkPassword(password);
  const passwordHash = await hashPassword(password);
  await app.tx(async (tx) => await passwordChangedTx(app, tx, user, passwordHash, { endSessions: false }));
  app.revoke({ userId: user.id }); // whoever knew the old password loses what it gave them
}

export function checkPassword(password: string) {
  if (password.length < 6) throw passwordTooShort();
}

/**
 * Every password change ends here, inside its transaction. With `endSessions` (a reset from a mailed
 * link), the user's other sessions end too: a new API key, so clients signed in with the old password
 * must sign in again, and their event queues dropped. Browser sessions end here in every
 * case: this is the one place every password change passes.
 */
export async function passwordChangedTx(app: App, tx: Tx, user: UserRow, passwordHash: string, o: { endSessions: boolean; keepSession?: number | null }) {
  await store.updateUser(tx.db, user.id, o.endSessions ? { passwordHash, apiKey: randomToken(32) } : { passwordHash });
  // Browsers signed in with the old password are signed out (all but the one that set it, if any).
  await revokeSessionsTx(tx, [user.id], o.endSessions ? null : (o.keepSession ?? null));
  if (o.endSessions) app.revoke({ userId: user.id });
}

const isLastOwner = async (app: App, user: UserRow) => isOwner(user.role) && !user.isBot && (await store.countActiveHumanOwners(app.db, user.realmId)) <= 1;

/**
 * Deactivates a user (by anyone: the API checks who may first) and the bots they own. A realm keeps at
 * least one active owner. Their queues are dropped; they stay in their groups but count as members of
 * nothing while deactivated.
 */
export async function deactivateUser(app: App, user: UserRow) {
  if (!user.isActive) throw userAlreadyDeactivated();
  if (await isLastOwner(app, user)) throw lastOwner();
  const bots = user.isBot ? [] : (await store.listOwnedBots(app.db, user.id)).filter((b) => b.isActive);
  await app.tx(async (tx) => {
    for (const u of [user, ...bots]) {
      await writePendingRows(tx.db, { userId: u.id }); // what they received so far stays theirs
      await store.updateUser(tx.db, u.id, { isActive: false });
      tx.emit({ type: "realm_user", op: "update", person: { user_id: u.id, is_active: false } }, toRealm(u.realmId));
      if (u.isBot) tx.emit(await botEvent("remove", u), await botAudience(tx, u));
      await announceSettingsNamingUserTx(tx, u.realmId, u.id);
    }
    await revokeSessionsTx(tx, [user.id, ...bots.map((b) => b.id)]);
    forgetRecipients(app);
  });
  for (const u of [user, ...bots]) app.revoke({ userId: u.id });
}

/** DELETE /users/{user_id}: administrators deactivate users (owners only by owners). */
export async function deactivateUserByAdmin(app: App, actor: UserRow, id: number) {
  const target = await userForAdmin(app, actor, id, { bots: false });
  if (!target.isActive) throw targetUserDeactivated();
  if (isOwner(target.role) && !isOwner(actor.role)) throw mustBeOwner();
  await deactivateUser(app, target);
  return {};
}

/** DELETE /users/me: one's own account; the realm keeps a user and an owner. */
export async function deactivateOwnAccount(app: App, user: UserRow) {
  if ((await store.countActiveUsers(app.db, user.realmId)) <= 1) throw lastUser();
  await deactivateUser(app, user);
  return {};
}

/** POST /users/{user_id}/reactivate. */
export async function reactivateUser(app: App, actor: UserRow, id: number) {
  const target = await userForAdmin(app, actor, id, { bots: true });
  if (target.isActive) throw userAlreadyActive();
  if (target.isBot && target.botOwnerId !== null && !(await store.findUserById(app.db, target.botOwnerId))?.isActive) throw cannotReactivateBotWhoseOwner();
  await app.tx(async (tx) => await reactivateUserTx(app, tx, target));
  return {};
}

/** The transactional half of reactivation, for actions that bring a user back as part of a larger change (a restored plugin's bot). */
export async function reactivateUserTx(app: App, tx: Tx, target: UserRow): Promise<UserRow> {
  const row = await store.updateUser(tx.db, target.id, { isActive: true });
  await startDeliveries(tx.db, row.id); // nothing sent while they were away
  forgetRecipients(app);
  tx.emit({ type: "realm_user", op: "update", person: { user_id: row.id, is_active: true } }, toRealm(row.realmId));
  if (row.isBot) tx.emit(await botEvent("add", row, app.config.externalUrl, tx.db), await botAudience(tx, row));
  await announceSettingsNamingUserTx(tx, row.realmId, row.id);
  return row;
}

/** A user of the actor's realm whom an administrator may manage. */
async function userForAdmin(app: App, actor: UserRow, id: number, o: { bots: boolean }): Promise<UserRow> {
  if (!isAdmin(actor.role)) throw insufficientPermission();
  const target = await userInRealm(app, actor, id);
  if (target.isBot && !o.bots) throw noSuchUser();
  return target;
}

export const createUserParams = { email: p.str(), password: p.str(), full_name: p.str() };

/** POST /users: administrators create accounts with a password. */
export async function createUserByAdmin(app: App, realm: RealmRow, actor: UserRow, a: Args<typeof createUserParams>) {
  if (!isAdmin(actor.role)) throw mustBeAdmin();
  if (!isValidEmail(a.email)) throw invalidEmailAddress(a.email);
  await checkEmailAllowed(app, realm, a.email);
  if (a.password.length < 6) throw passwordTooShort();
  await checkNewUser(app, realm, { email: a.email, fullName: a.full_name });
  const passwordHash = await hashPassword(a.password);
  const row = await app.tx(async (tx) => {
    const user = await insertUserTx(app, tx, realm, { email: a.email, fullName: a.full_name }, passwordHash);
    // As in Zulip, an account made by an administrator starts in the realm's default channels.
    const defaults = (await mapInOrder(await listDefaultChannelIds(tx.db, realm.id), async (id) => await findChannel(tx.db, id))).filter(
      (c): c is ChannelRow => !!c && !c.isArchived,
    );
    if (defaults.length) await subscribeUsersTx(app, tx, realm, defaults, [user]);
    return user;
  });
  return { user_id: row.id };
}

/** Where the realm restricts emails to its domains, an address outside them is refused. */
export async function checkEmailAllowed(app: App, realm: RealmRow, email: string) {
  if (realmSetting(realm, "emails_restricted_to_domains") !== true) return;
  if (!emailInDomains(email, await listRealmDomains(app.db, realm.id))) throw emailNotAllowedOrganization(email);
}

/** What an administrator may change of a user (PATCH /users/{user_id} or /users/{email}). */
export const userPatchParams = {
  full_name: p.str().optional(),
  role: p.intEnum(ROLES).optional(),
  new_email: p.str().optional(),
  profile_data: p.json(t.list(t.object({ id: t.int(), value: t.any() }))).optional(),
};
export type UserPatch = Args<typeof userPatchParams>;

/**
 * PATCH /users/{user_id}: administrators change a user's name, role, email and profile fields. Only
 * owners make or unmake owners, and the last owner stays one.
 */
export async function updateUserByAdmin(app: App, realm: RealmRow, actor: UserRow, id: number, a: UserPatch) {
  const target = await userForAdmin(app, actor, id, { bots: true });
  const patch: Partial<UserRow> = {};
  const events: Record<string, unknown>[] = [];
  if (a.full_name !== undefined && a.full_name.trim() !== target.fullName) {
    const name = checkFullName(a.full_name);
    if (!name.ok) throw invalidParam(name.msg);
    patch.fullName = name.name;
    events.push({ full_name: name.name });
  }
  if (a.role !== undefined && a.role !== target.role) {
    if ((a.role === ROLE.owner || isOwner(target.role)) && !isOwner(actor.role)) throw mustBeOwner();
    if (await isLastOwner(app, target)) throw ownerPermissionCannotBeRemoved();
    patch.role = a.role;
    events.push({ role: a.role });
  }
  if (a.new_email !== undefined && a.new_email.toLowerCase() !== target.email.toLowerCase()) {
    if (!isValidEmail(a.new_email)) throw invalidNewEmailAddress();
    if (await store.findUserByEmail(app.db, realm.id, a.new_email)) throw emailInUse(a.new_email);
    patch.email = a.new_email;
    events.push({ new_email: a.new_email }, { delivery_email: a.new_email });
  }
  const profile = a.profile_data ? await planProfileData(app, realm, target, a.profile_data) : [];
  if (!Object.keys(patch).length && !profile.length) return {};
  await app.tx(async (tx) => {
    const row = Object.keys(patch).length ? await store.updateUser(tx.db, target.id, patch) : target;
    for (const person of events) tx.emit({ type: "realm_user", op: "update", person: { user_id: row.id, ...person } }, toRealm(realm.id));
    if (patch.role !== undefined) await syncRoleGroups(tx, row, app.now());
    await applyProfileData(tx, realm, row, profile);
  });
  return {};
}

/** Checks a password in constant time against the stored argon2id hash. */
export async function verifyPassword(user: UserRow, password: string): Promise<boolean> {
  if (!user.passwordHash) return false;
  return Bun.password.verify(password, user.passwordHash);
}

/** GET /users/me. */
export function ownUser(app: App, user: UserRow) {
  // Clients call this constantly (it is also their keep-alive check): the object is built once while
  // the user's lookups stand, and frozen, so that its JSON is written once too (http/respond.ts); a
  // cached one is answered without a promise.
  const key = `me:${user.id}`;
  return app.reads.peek<Readonly<Record<string, unknown>>>(key) ?? ownUserRead(app, user, key);
}

async function ownUserRead(app: App, user: UserRow, key: string) {
  return await app.reads.get(key, async () => {
    const profileData = await profileDataOfUser(app.db, user);
    const { bot_type, bot_owner_id, ...me } = toApiUser(user, { externalUrl: app.config.externalUrl, profileData });
    return Object.freeze({ ...me, max_message_id: -1 });
  });
}

export const userViewParams = {
  client_gravatar: p.bool().optional(true),
  include_custom_profile_fields: p.bool().optional(false),
};
export const listUsersParams = { ...userViewParams, user_ids: p.intList().optional() };
type ViewArgs = Args<typeof userViewParams>;
const viewOf = (app: App, a: ViewArgs) => ({ externalUrl: app.config.externalUrl, clientGravatar: a.client_gravatar });

/** GET /users: the realm's users (all of them, or those in user_ids). */
export async function listRealmUsers(app: App, viewer: UserRow, a: Args<typeof listUsersParams>) {
  const wanted = a.user_ids ? new Set(a.user_ids) : null;
  const o = viewOf(app, a);
  const profile = a.include_custom_profile_fields ? await realmProfileData(app.db, viewer.realmId) : null;
  return {
    members: (await store.listUsers(app.db, viewer.realmId))
      // The system bots are not the realm's users (register lists them as cross_realm_bots).
      .filter((u) => (!wanted || wanted.has(u.id)) && !isSystemBot(u))
      .map((u) => toApiUser(u, { ...o, profileData: profile ? profile(u.id) : undefined })),
  };
}

/** A user of the viewer's realm, or `No such user`. */
export async function userInRealm(app: App, viewer: UserRow, id: number): Promise<UserRow> {
  const u = await store.findUserById(app.db, id);
  if (!u || u.realmId !== viewer.realmId) throw noSuchUser();
  return u;
}

/** A path segment that is a user id or an email (Zulip's `{user_id_or_email}`). */
export async function userByIdOrEmail(app: App, viewer: UserRow, key: string): Promise<UserRow> {
  if (/^\d+$/.test(key)) return await userInRealm(app, viewer, Number(key));
  const u = await store.findUserByEmail(app.db, viewer.realmId, key);
  if (!u) throw noSuchUser();
  return u;
}

const oneUser = async (app: App, u: UserRow, a: ViewArgs) => ({
  user: toApiUser(u, { ...viewOf(app, a), profileData: a.include_custom_profile_fields ? await profileDataOfUser(app.db, u) : undefined }),
});

export const getUser = async (app: App, viewer: UserRow, id: number, a: ViewArgs) => await oneUser(app, await userInRealm(app, viewer, id), a);

export async function getUserByEmail(app: App, viewer: UserRow, email: string, a: ViewArgs) {
  const u = await store.findUserByEmail(app.db, viewer.realmId, email);
  if (!u) throw noSuchUser();
  return await oneUser(app, u, a);
}

/** PATCH /users/{email}: the same change, naming the user by email (Zulip 9.0, level 313). */
export async function updateUserByEmail(app: App, realm: RealmRow, admin: UserRow, email: string, a: UserPatch) {
  const u = await store.findUserByEmail(app.db, admin.realmId, email);
  if (!u) throw noSuchUser();
  return await updateUserByAdmin(app, realm, admin, u.id, a);
}

/** What a new user of the realm starts with: the realm's defaults as they are at this moment. */
export async function initialUserSettings(db: Db, realm: RealmRow): Promise<Record<string, unknown>> {
  const language = realmSetting(realm, "default_language");
  return withSetting(await findRealmUserDefaults(db, realm.id), "default_language", language, USER_SETTINGS.default_language.default);
}
