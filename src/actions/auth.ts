import type { App } from "../app";
import type { RealmRow, UserRow } from "../db/schema";
import { badCredentials, devOnly, invalidApiKey, realmDeactivated, userDeactivated } from "../domain/errors";
import { safeEqual } from "../lib/random";
import { findUserByApiKey, findUserByEmail } from "../store/users";
import { isLiveRunKey } from "./agent-runs";
import { noteBotCall } from "./plugins";

// Every login path — API key, password, dev login — takes the same steps: refuse while the client
// address or the account is over its failure limit, look the user up, verify, count a failure, and
// only then report the realm's or the account's deactivation.

/** The client's address, worked out only when needed. */
export type ClientIp = () => string;

function lookup(app: App, realm: RealmRow, email: string, ip: ClientIp): UserRow | undefined {
  app.loginFailures.check(() => `ip:${ip()}`);
  app.loginFailures.check(`${realm.id}:${email.toLowerCase()}`);
  return app.reads.get(`user:${realm.id}:${email.toLowerCase()}`, () => findUserByEmail(app.db, realm.id, email));
}

function failed(app: App, realm: RealmRow, email: string, ip: ClientIp, err: Error): Error {
  app.loginFailures.fail(`ip:${ip()}`);
  app.loginFailures.fail(`${realm.id}:${email.toLowerCase()}`);
  return err;
}

function admit(realm: RealmRow, user: UserRow): UserRow {
  if (realm.deactivated) throw realmDeactivated();
  if (!user.isActive) throw userDeactivated();
  return user;
}

/**
 * HTTP Basic with email and API key; keys are compared in constant time. The agent's bot also takes the
 * key of a live run (docs/extensions.md, "Run keys"), which stops working when the run ends.
 */
export function authenticateApiKey(app: App, realm: RealmRow, email: string, apiKey: string, ip: ClientIp): UserRow {
  const user = lookup(app, realm, email, ip);
  if (!user || !(safeEqual(user.apiKey, apiKey) || isLiveRunKey(app, user, apiKey))) throw failed(app, realm, email, ip, invalidApiKey());
  admit(realm, user);
  // A plugin's process "answers" with its bot's first authenticated call (docs/extensions.md).
  noteBotCall(app, user);
  return user;
}

/** An incoming webhook's `api_key` URL parameter alone: the key names the user. Counted like Basic failures. */
export function authenticateWebhookKey(app: App, realm: RealmRow, apiKey: string, ip: ClientIp): UserRow {
  app.loginFailures.check(() => `ip:${ip()}`);
  const user = findUserByApiKey(app.db, realm.id, apiKey.trim());
  if (!user) {
    app.loginFailures.fail(`ip:${ip()}`);
    throw invalidApiKey();
  }
  return admit(realm, user);
}

/** POST /fetch_api_key: email and password (argon2id) for the API key. */
export async function fetchApiKey(app: App, realm: RealmRow, email: string, password: string, ip: ClientIp) {
  const user = lookup(app, realm, email, ip);
  const ok = user?.passwordHash ? await Bun.password.verify(password, user.passwordHash) : false;
  if (!user || !ok) throw failed(app, realm, email, ip, badCredentials());
  admit(realm, user);
  return { api_key: user.apiKey, email: user.email, user_id: user.id };
}

/** POST /dev_fetch_api_key: any user's key without a password, on development servers only. */
export function devFetchApiKey(app: App, realm: RealmRow, email: string, ip: ClientIp) {
  if (!app.config.development) throw devOnly();
  const user = lookup(app, realm, email, ip);
  if (!user) throw failed(app, realm, email, ip, badCredentials());
  admit(realm, user);
  return { api_key: user.apiKey, email: user.email, user_id: user.id };
}
