import type { App } from "../context";
import type { RealmRow, UserRow } from "../db/schema";
import { badCredentials, devOnly, invalidApiKey, realmDeactivated, userDeactivated } from "../domain/errors";
import { safeEqual } from "../lib/random";
import { findUserByApiKey, findUserByEmail } from "../store/users";
import { isLiveRunKey } from "./run-keys";
import { noteBotCall } from "./plugin-host";

// Every login path — API key, password, dev login — takes the same steps: look the user up, verify,
// and only then report the realm's or the account's deactivation. Throttling counts failures per client
// address (through trusted_proxies) and per account, and refuses only further FAILING attempts (429
// instead of 401): a valid credential is never refused because someone, somewhere, failed — behind
// a proxy without trusted_proxies, everyone shares one address. The one exception is a password
// login from an address that is itself over its limit: argon2 is costly, and that address is the
// guesser's own.

/** The client's address, worked out only when needed. */
export type ClientIp = () => string;

const userKey = (realm: RealmRow, email: string) => `user:${realm.id}:${email.toLowerCase()}`;

async function lookup(app: App, realm: RealmRow, email: string): Promise<UserRow | undefined> {
  return await app.reads.get(userKey(realm, email), async () => await findUserByEmail(app.db, realm.id, email));
}

/** A failed attempt: counted for the address and the account, then 429 if either was already over its limit. */
async function failed(app: App, realm: RealmRow, email: string, ip: ClientIp, err: Error): Promise<Error> {
  const keys = [`ip:${ip()}`, `${realm.id}:${email.toLowerCase()}`];
  let limited: Error | undefined;
  for (const k of keys)
    try {
      await app.loginFailures.check(k);
    } catch (e) {
      limited ??= e as Error;
    }
  for (const k of keys) await app.loginFailures.fail(k);
  return limited ?? err;
}

export function admit(realm: RealmRow, user: UserRow): UserRow {
  if (realm.deactivated) throw realmDeactivated();
  if (!user.isActive) throw userDeactivated();
  return user;
}

/**
 * HTTP Basic with email and API key; keys are compared in constant time. The agent's bot also takes the
 * key of a live run (docs/extensions.md, "Run keys"), which stops working when the run ends.
 */
export function authenticateApiKey(app: App, realm: RealmRow, email: string, apiKey: string, ip: ClientIp): UserRow | Promise<UserRow> {
  // Almost every request: the user is cached and the key is theirs, answered without a promise.
  const cached = app.reads.peek<UserRow>(userKey(realm, email));
  if (cached && safeEqual(cached.apiKey, apiKey)) return admitted(app, realm, cached);
  return authenticateApiKeyRead(app, realm, email, apiKey, ip);
}

async function authenticateApiKeyRead(app: App, realm: RealmRow, email: string, apiKey: string, ip: ClientIp): Promise<UserRow> {
  const user = await lookup(app, realm, email);
  if (!user || !(safeEqual(user.apiKey, apiKey) || (await isLiveRunKey(app, user, apiKey)))) throw await failed(app, realm, email, ip, invalidApiKey());
  return admitted(app, realm, user);
}

function admitted(app: App, realm: RealmRow, user: UserRow): UserRow {
  admit(realm, user);
  // A plugin's process "answers" with its bot's first authenticated call (docs/extensions.md).
  noteBotCall(app, user);
  return user;
}

/**
 * An incoming webhook's `api_key` URL parameter alone: the key names the user. A wrong key counts as a
 * failure of the address (429 once it is over its limit); a right one is never refused for others' failures.
 */
export async function authenticateWebhookKey(app: App, realm: RealmRow, apiKey: string, ip: ClientIp): Promise<UserRow> {
  const user = await findUserByApiKey(app.db, realm.id, apiKey.trim());
  if (!user) {
    await app.loginFailures.check(`ip:${ip()}`);
    await app.loginFailures.fail(`ip:${ip()}`);
    throw invalidApiKey();
  }
  return admit(realm, user);
}

/** Email and password (argon2id): POST /fetch_api_key and the web client's sign-in. */
export async function authenticatePassword(app: App, realm: RealmRow, email: string, password: string, ip: ClientIp): Promise<UserRow> {
  const address = `ip:${ip()}`;
  app.loginFailures.checkHere(address);
  // In flight from here on: on PostgreSQL the cluster's count and the lookup each await a read, and a
  // burst of guesses must not all pass the check meanwhile.
  const user = await app.loginFailures.pending(address, async () => {
    await app.loginFailures.checkCluster(address);
    const found = await lookup(app, realm, email);
    return found?.passwordHash && (await Bun.password.verify(password, found.passwordHash)) ? found : null;
  });
  if (!user) throw await failed(app, realm, email, ip, badCredentials());
  return admit(realm, user);
}

/** POST /fetch_api_key: email and password for the API key. */
export async function fetchApiKey(app: App, realm: RealmRow, email: string, password: string, ip: ClientIp) {
  const user = await authenticatePassword(app, realm, email, password, ip);
  return { api_key: user.apiKey, email: user.email, user_id: user.id };
}

/** POST /dev_fetch_api_key: any user's key without a password, on development servers only. */
export async function devFetchApiKey(app: App, realm: RealmRow, email: string, ip: ClientIp) {
  if (!app.config.development) throw devOnly();
  const user = await lookup(app, realm, email);
  if (!user) throw await failed(app, realm, email, ip, badCredentials());
  admit(realm, user);
  return { api_key: user.apiKey, email: user.email, user_id: user.id };
}
