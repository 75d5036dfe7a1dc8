// Browser sessions of the web client (docs/sessions.md): a random token in an HttpOnly cookie, kept
// server-side only as its hash, with an expiry and a CSRF token bound to it. Every change that must
// sign a person out (sign-out, password change, deactivation of the user or realm) deletes the rows
// in its own transaction, so a revoked cookie fails on the next request, whichever process revoked it.
import type { App } from "../context";
import type { RealmRow, SessionRow, UserRow } from "../db/schema";
import type { Tx } from "../db/tx";
import { notLoggedIn } from "../domain/errors";
import { randomToken } from "../lib/random";
import * as store from "../store/sessions";
import { findUserById } from "../store/users";
import { admit, authenticatePassword, type ClientIp } from "./auth";

export const sessionTokenHash = (token: string) => new Bun.CryptoHasher("sha256").update(token).digest("hex");

/** What the cookies carry; `token` exists only here and in the browser. */
export interface NewSession {
  token: string;
  csrfToken: string;
  maxAgeSeconds: number;
}

/** A new session for a user already authenticated (sign-in, or an account just created). */
export async function startSession(app: App, user: UserRow): Promise<NewSession> {
  const token = randomToken(43);
  const csrfToken = randomToken(32);
  const maxAgeSeconds = app.config.web.sessionDays * 86400;
  const now = app.now();
  await app.tx(
    async (tx) =>
      await store.insertSession(tx.db, { userId: user.id, tokenHash: sessionTokenHash(token), csrfToken, dateCreated: now, expiresAt: now + maxAgeSeconds }),
    {
      keepsLookups: true,
    },
  );
  return { token, csrfToken, maxAgeSeconds };
}

/** POST /accounts/login: email and password, under the same failure limits as every login. */
export async function signIn(app: App, realm: RealmRow, email: string, password: string, ip: ClientIp) {
  const user = await authenticatePassword(app, realm, email, password, ip);
  return { user, session: await startSession(app, user) };
}

/** The user behind a session cookie, for /json requests; anything stale answers like no cookie at all. */
export async function authenticateSession(app: App, realm: RealmRow, token: string): Promise<{ user: UserRow; session: SessionRow }> {
  const hash = sessionTokenHash(token);
  const session = await app.reads.get(`session:${hash}`, async () => await store.findSessionByHash(app.db, hash));
  if (!session || session.expiresAt <= app.now()) throw notLoggedIn();
  const user = await app.reads.get(`user-id:${session.userId}`, async () => await findUserById(app.db, session.userId));
  if (!user || user.realmId !== realm.id) throw notLoggedIn();
  return { user: admit(realm, user), session };
}

/** POST /accounts/logout. */
export async function signOut(app: App, session: SessionRow) {
  await app.tx(async (tx) => await store.deleteSession(tx.db, session.id));
}

/** Signs users out everywhere (but for the session `keep`), inside the change that requires it. */
export const revokeSessionsTx = async (tx: Tx, userIds: number[], keep: number | null = null) => {
  if (userIds.length) await store.deleteUserSessions(tx.db, userIds, keep);
};

export const revokeRealmSessionsTx = async (tx: Tx, realmId: number) => await store.deleteRealmSessions(tx.db, realmId);

/** Housekeeping: expired rows go (they already fail authentication). */
export const deleteExpiredSessions = async (app: App) =>
  await app.tx(async (tx) => await store.deleteExpiredSessions(tx.db, app.now()), { keepsLookups: true });
