// Organization secrets: added by members, sealed before the store sees them, opened only by
// runSecretEnv when a plugin process or an agent run starts.
import type { App } from "../context";
import type { RealmRow, SecretRow, UserRow } from "../db/schema";
import type { Tx } from "../db/tx";
import {
  botsRefused,
  guestsRefused,
  insufficientPermission,
  invalidParam,
  noSuchSecret,
  noteTooLongLimitCharacters,
  nothingToChange,
  secretNameInUse,
} from "../domain/errors";
import { isAdmin, isGuest } from "../domain/roles";
import { checkSecretValue, secretHint, secretNameProblem, SECRET_LIMITS, toApiSecret } from "../domain/secrets";
import { toUsers, type Audience } from "../events/types";
import { decrypt, encrypt, loadKey } from "../lib/crypto";
import * as store from "../store/secrets";
import { listUsers } from "../store/users";
import { p, type Args } from "../domain/params";

// ---- Who: the extension layer's human members ----

/** The extension endpoints the contract closes to guests and bots. */
export function requireHumanMember(user: UserRow) {
  if (user.isBot) throw botsRefused();
  if (isGuest(user.role)) throw guestsRefused();
}

/** The organization's active members, neither guests nor bots: who hears of secrets and plugins. */
export const humanMemberIds = async (tx: Tx | App, realmId: number): Promise<number[]> =>
  (await listUsers(tx.db, realmId)).filter((u) => u.isActive && !u.isBot && !isGuest(u.role)).map((u) => u.id);

const membersOf = async (tx: Tx, realmId: number): Promise<Audience> => toUsers(await humanMemberIds(tx, realmId));

// ---- Sealing ----

const keys = new WeakMap<App, Buffer>();
/** The secrets key, read once per app: CONFAB_SECRETS_KEY, else the key file in the data directory. */
function secretsKey(app: App): Buffer {
  let key = keys.get(app);
  if (!key) keys.set(app, (key = loadKey(app.config.dataDir, process.env.CONFAB_SECRETS_KEY)));
  return key;
}

/** A key for one other purpose (e.g. "unsubscribe"), derived from the secrets key so no second key file is needed. */
export const derivedKey = (app: App, purpose: string): Buffer => new Bun.CryptoHasher("sha256", secretsKey(app)).update(`confab:${purpose}`).digest();

/** Seals a value for one place (`context`, e.g. "secret:3:GITHUB_TOKEN"); only runSecretEnv opens it. */
export const sealValue = (app: App, value: string, context: string) => encrypt(secretsKey(app), value, context);

const secretContext = (realmId: number, name: string) => `secret:${realmId}:${name}`;

export interface SealedSlot {
  /** Environment variable the value goes in. */
  env: string;
  sealed: string;
  context: string;
}

/**
 * The one place secret values are decrypted: the environment of a run (a plugin's process, an agent
 * run). Gives the named organization secrets that exist, and the sealed slots; the secrets used get
 * `date_used`, and members hear of it.
 */
export async function runSecretEnv(app: App, realmId: number, names: readonly string[], slots: readonly SealedSlot[] = []) {
  const key = secretsKey(app);
  const env: Record<string, string> = {};
  for (const s of slots) env[s.env] = decrypt(key, s.sealed, s.context);
  const rows = await store.findSecretsByName(app.db, realmId, names);
  for (const r of rows) env[r.name] = decrypt(key, r.sealed, secretContext(realmId, r.name));
  if (rows.length)
    await app.tx(async (tx) => {
      await store.markSecretsUsed(
        tx.db,
        rows.map((r) => r.id),
        app.now(),
      );
      const audience = await membersOf(tx, realmId);
      for (const r of rows) tx.emit({ type: "ext_secret", op: "update", secret: toApiSecret({ ...r, dateUsed: app.now() }) }, audience);
    });
  return { env, missing: names.filter((n) => !rows.some((r) => r.name === n)) };
}

// ---- Changes ----

function checkNote(note: string) {
  if ([...note].length > SECRET_LIMITS.note) throw noteTooLongLimitCharacters(SECRET_LIMITS.note);
}

/**
 * `actor` null is the server's operator (the CLI), who may change anything; a user must be a human
 * member, and change only secrets they added unless they administer the organization.
 */
async function secretForChange(app: App, realm: RealmRow, actor: UserRow | null, name: string): Promise<SecretRow> {
  if (actor) requireHumanMember(actor);
  const row = await store.findSecret(app.db, realm.id, name);
  if (!row) throw noSuchSecret(name);
  if (actor && !isAdmin(actor.role) && row.addedBy !== actor.id) throw insufficientPermission();
  return row;
}

/** GET /ext/secrets: every secret of the organization, without values. */
export async function listSecrets(app: App, realm: RealmRow, user: UserRow | null) {
  if (user) requireHumanMember(user);
  return { secrets: (await store.listSecrets(app.db, realm.id)).map(toApiSecret) };
}

export const addSecretParams = { name: p.str(), secret: p.str(), note: p.str().optional("") };

/** POST /ext/secrets: a new secret; its value is never shown again. */
export async function addSecret(app: App, realm: RealmRow, actor: UserRow | null, a: Args<typeof addSecretParams>) {
  if (actor) requireHumanMember(actor);
  const problem = secretNameProblem(a.name);
  if (problem) throw invalidParam(problem);
  if (await store.findSecret(app.db, realm.id, a.name)) throw secretNameInUse(a.name);
  checkSecretValue(a.secret);
  checkNote(a.note);
  const sealed = sealValue(app, a.secret, secretContext(realm.id, a.name));
  return await app.tx(async (tx) => {
    if (await store.findSecret(tx.db, realm.id, a.name)) throw secretNameInUse(a.name);
    const row = await store.insertSecret(tx.db, {
      realmId: realm.id,
      name: a.name,
      sealed,
      hint: secretHint(a.secret),
      note: a.note,
      addedBy: actor?.id ?? null,
      dateAdded: app.now(),
    });
    const secret = toApiSecret(row);
    tx.emit({ type: "ext_secret", op: "add", secret }, await membersOf(tx, realm.id));
    return { secret };
  });
}

export const updateSecretParams = { secret: p.str().optional(), note: p.str().optional() };

/** PATCH /ext/secrets/{name}: a new value (recording who replaced it and when) and/or a new note; by administrators or the one who added it. */
export async function updateSecret(app: App, realm: RealmRow, actor: UserRow | null, name: string, a: Args<typeof updateSecretParams>) {
  const row = await secretForChange(app, realm, actor, name);
  if (a.secret === undefined && a.note === undefined) throw nothingToChange();
  if (a.secret !== undefined) checkSecretValue(a.secret);
  if (a.note !== undefined) checkNote(a.note);
  const patch: Partial<SecretRow> = {};
  if (a.note !== undefined) patch.note = a.note;
  if (a.secret !== undefined)
    Object.assign(patch, {
      sealed: sealValue(app, a.secret, secretContext(row.realmId, name)),
      hint: secretHint(a.secret),
      replacedBy: actor?.id ?? null,
      dateReplaced: app.now(),
    });
  return await app.tx(async (tx) => {
    const secret = toApiSecret(await store.updateSecret(tx.db, row.id, patch));
    tx.emit({ type: "ext_secret", op: "update", secret }, await membersOf(tx, row.realmId));
    return { secret };
  });
}

/** DELETE /ext/secrets/{name}: by administrators or the one who added it. */
export async function deleteSecret(app: App, realm: RealmRow, actor: UserRow | null, name: string) {
  const row = await secretForChange(app, realm, actor, name);
  await app.tx(async (tx) => {
    await store.deleteSecret(tx.db, row.id);
    tx.emit({ type: "ext_secret", op: "remove", name }, await membersOf(tx, row.realmId));
  });
  return {};
}
