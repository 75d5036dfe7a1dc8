import type { App } from "../app";
import type { RealmRow, UserRow } from "../db/schema";
import type { Tx } from "../db/tx";
import { ApiError, emailInUse, invalidParam, noSuchUser } from "../domain/errors";
import { isRole, ROLE, SYSTEM_GROUPS, type Role } from "../domain/roles";
import { checkFullName, isValidEmail, toApiUser } from "../domain/users";
import { toRealm } from "../events/types";
import { randomToken } from "../lib/random";
import { initialUserSettings } from "./user-settings";
import * as store from "../store/users";
import { addGroupMembers, listSystemGroups, removeGroupMembers } from "../store/user-groups";

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

export function checkNewUser(app: App, realm: RealmRow, u: NewUser) {
  if (!isValidEmail(u.email)) throw invalidParam(`Invalid email '${u.email}'`);
  const name = checkFullName(u.fullName);
  if (!name.ok) throw invalidParam(name.msg);
  if (u.role !== undefined && !isRole(u.role)) throw invalidParam("Invalid role");
  if (store.findUserByEmail(app.db, realm.id, u.email)) throw emailInUse(u.email);
}

/** Creates a user (hashing the password first, outside the transaction) and announces it to the realm. */
export async function createUser(app: App, realm: RealmRow, u: NewUser): Promise<UserRow> {
  checkNewUser(app, realm, u);
  const passwordHash = u.password ? await hashPassword(u.password) : null;
  return app.tx((tx) => insertUserTx(app, tx, realm, u, passwordHash));
}

/** The transactional half of createUser, for actions that create users inside a larger change. */
export function insertUserTx(app: App, tx: Tx, realm: RealmRow, u: NewUser, passwordHash: string | null): UserRow {
  if (store.findUserByEmail(tx.db, realm.id, u.email)) throw emailInUse(u.email);
  const row = store.insertUser(tx.db, {
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
    settings: initialUserSettings(tx.db, realm),
  });
  syncRoleGroups(tx, row);
  tx.emit({ type: "realm_user", op: "add", person: toApiUser(row, { externalUrl: app.config.externalUrl }) }, toRealm(realm.id));
  return row;
}

/** Puts a user in exactly the system groups of their role. */
export function syncRoleGroups(tx: Tx, user: UserRow) {
  const groups = listSystemGroups(tx.db, user.realmId);
  for (const def of SYSTEM_GROUPS) {
    const g = groups.find((x) => x.name === def.name);
    if (!g) continue;
    if ((def.roles as readonly number[]).includes(user.role)) addGroupMembers(tx.db, g.id, [user.id]);
    else removeGroupMembers(tx.db, g.id, [user.id]);
  }
}

/** A new API key; the old one stops working at once and the user's event queues are dropped. */
export function regenerateApiKey(app: App, user: UserRow): string {
  const apiKey = randomToken(32);
  app.tx((tx) => store.updateUser(tx.db, user.id, { apiKey }));
  app.queues.dropUser(user.id);
  return apiKey;
}

export async function setPassword(app: App, user: UserRow, password: string) {
  if (password.length < 6) throw new ApiError("BAD_REQUEST", "The password is too short.");
  const passwordHash = await hashPassword(password);
  app.tx((tx) => store.updateUser(tx.db, user.id, { passwordHash }));
}

export function deactivateUser(app: App, user: UserRow) {
  if (!user.isActive) throw invalidParam("User is already deactivated");
  app.tx((tx) => {
    const row = store.updateUser(tx.db, user.id, { isActive: false });
    tx.emit({ type: "realm_user", op: "update", person: { user_id: row.id, is_active: false } }, toRealm(row.realmId));
  });
  app.queues.dropUser(user.id);
}

/** Checks a password in constant time against the stored argon2id hash. */
export async function verifyPassword(user: UserRow, password: string): Promise<boolean> {
  if (!user.passwordHash) return false;
  return Bun.password.verify(password, user.passwordHash);
}

/** GET /users/me. */
export function ownUser(app: App, user: UserRow) {
  const { bot_type, bot_owner_id, ...me } = toApiUser(user, { externalUrl: app.config.externalUrl, profileData: true });
  return { ...me, max_message_id: -1 };
}

type ViewArgs = { client_gravatar: boolean; include_custom_profile_fields: boolean };
const viewOf = (app: App, a: ViewArgs) => ({
  externalUrl: app.config.externalUrl,
  clientGravatar: a.client_gravatar,
  profileData: a.include_custom_profile_fields,
});

/** GET /users: the realm's users (all of them, or those in user_ids). */
export function listRealmUsers(app: App, viewer: UserRow, a: ViewArgs & { user_ids?: number[] }) {
  const wanted = a.user_ids ? new Set(a.user_ids) : null;
  const o = viewOf(app, a);
  return { members: store.listUsers(app.db, viewer.realmId).filter((u) => !wanted || wanted.has(u.id)).map((u) => toApiUser(u, o)) };
}

/** A user of the viewer's realm, or `No such user`. */
export function userInRealm(app: App, viewer: UserRow, id: number): UserRow {
  const u = store.findUserById(app.db, id);
  if (!u || u.realmId !== viewer.realmId) throw noSuchUser();
  return u;
}

/** A path segment that is a user id or an email (Zulip's `{user_id_or_email}`). */
export function userByIdOrEmail(app: App, viewer: UserRow, key: string): UserRow {
  if (/^\d+$/.test(key)) return userInRealm(app, viewer, Number(key));
  const u = store.findUserByEmail(app.db, viewer.realmId, key);
  if (!u) throw noSuchUser();
  return u;
}

export const getUser = (app: App, viewer: UserRow, id: number, a: ViewArgs) => ({ user: toApiUser(userInRealm(app, viewer, id), viewOf(app, a)) });

export function getUserByEmail(app: App, viewer: UserRow, email: string, a: ViewArgs) {
  const u = store.findUserByEmail(app.db, viewer.realmId, email);
  if (!u) throw noSuchUser();
  return { user: toApiUser(u, viewOf(app, a)) };
}
