import type { App } from "../context";
import type { RealmRow, UserRow } from "../db/schema";
import type { Tx } from "../db/tx";
import { invalidParam, organizationNameRequired, subdomainAlreadyUse, subdomainMayContainOnlyLowercase } from "../domain/errors";
import { ROLE, SYSTEM_GROUPS } from "../domain/roles";
import { randomToken } from "../lib/random";
import { findRealmByStringId, insertRealm, listRealms, updateRealm } from "../store/realms";
import { addSubgroups, insertUserGroup } from "../store/user-groups";
import { revokeRealmSessionsTx } from "./sessions";
import { createStarterContentTx } from "./welcome";
import { checkNewUser, hashPassword, insertUserTx, setPassword } from "./users";

export interface NewRealm {
  stringId: string;
  name: string;
  ownerEmail: string;
  ownerName: string;
  ownerPassword?: string; // generated when absent
}

const STRING_ID_RE = /^(?:[a-z0-9](?:[a-z0-9-]{0,38}[a-z0-9])?)?$/;

export async function checkNewRealm(app: App, r: NewRealm) {
  if (!STRING_ID_RE.test(r.stringId)) throw subdomainMayContainOnlyLowercase();
  if (await findRealmByStringId(app.db, r.stringId)) throw subdomainAlreadyUse(r.stringId);
  if (!r.name.trim()) throw organizationNameRequired();
}

/** A realm and its system groups (inside the caller's transaction), without users yet. */
export async function insertRealmTx(app: App, tx: Tx, r: { stringId: string; name: string; description?: string; dateCreated?: number }): Promise<RealmRow> {
  const realm = await insertRealm(tx.db, {
    stringId: r.stringId,
    name: r.name.trim(),
    description: r.description ?? "",
    dateCreated: r.dateCreated ?? app.now(),
  });
  const ids = new Map<string, number>();
  for (const g of SYSTEM_GROUPS)
    ids.set(
      g.name,
      (await insertUserGroup(tx.db, { realmId: realm.id, name: g.name, description: g.description, isSystemGroup: true, dateCreated: app.now() })).id,
    );
  for (const g of SYSTEM_GROUPS) if (g.sub) await addSubgroups(tx.db, ids.get(g.name)!, [ids.get(g.sub)!]);
  return realm;
}

/** Options of a new organization. */
export interface NewRealmOptions {
  /** #general, #sandbox and the welcome bot's note (docs: actions/welcome.ts); tests start bare. */
  starterContent?: boolean;
}

/** The realm, its system groups and its owner (and its starter content), in one change. */
async function insertRealmWithOwner(
  app: App,
  r: NewRealm,
  passwordHash: string | null,
  o: NewRealmOptions & { onlyFirst?: boolean },
): Promise<{ realm: RealmRow; owner: UserRow } | null> {
  return await app.tx(async (tx) => {
    // Asked again inside the change, under the writer: of nodes starting together on an empty
    // PostgreSQL database, one creates the first organization and the others find it.
    if (o.onlyFirst && (await listRealms(tx.db)).length) return null;
    const realm = await insertRealmTx(app, tx, r);
    const u = { email: r.ownerEmail, fullName: r.ownerName, role: ROLE.owner };
    await checkNewUser(app, realm, u);
    const owner = await insertUserTx(app, tx, realm, u, passwordHash);
    if (o.starterContent ?? true) await createStarterContentTx(app, tx, realm, owner);
    return { realm, owner };
  });
}

/** A realm with its system groups and its owner. Returns the owner's password so it can be shown once. */
export async function createRealm(app: App, r: NewRealm, o: NewRealmOptions = {}): Promise<{ realm: RealmRow; owner: UserRow; password: string }> {
  await checkNewRealm(app, r);
  const password = r.ownerPassword ?? randomToken(20);
  const passwordHash = await hashPassword(password);
  return { ...(await insertRealmWithOwner(app, r, passwordHash, o))!, password };
}

/**
 * First start on an empty database: the first organization and its owner, from the config, written at
 * once so the server can listen. The owner's generated password works once `setPassword()` is done: a
 * server calls it after it answers, since argon2id takes a core for about 100 ms and the first answer of
 * a first start came 4–7 ms later while it ran beside it. Its starter content comes after too, with
 * `addStarterContent`: rendering the welcome note loads the Markdown renderer.
 */
export async function bootstrapFirstRealm(app: App) {
  if ((await listRealms(app.db)).length) return null;
  const c = app.config.firstRealm;
  const r = { stringId: "", name: c.name, ownerEmail: c.ownerEmail, ownerName: c.ownerName };
  try {
    await checkNewRealm(app, r);
  } catch (e) {
    // Another node started at the same moment created it since the look above ("Subdomain '' is already in use").
    if ((await listRealms(app.db)).length) return null;
    throw e;
  }
  const made = await insertRealmWithOwner(app, r, null, { starterContent: false, onlyFirst: true });
  if (!made) return null;
  const { realm, owner } = made;
  const password = randomToken(20);
  return { realm, owner, password, setPassword: async () => await setPassword(app, owner, password) };
}

/** #general, #sandbox and the welcome note for an organization created bare (bootstrapFirstRealm). */
export async function addStarterContent(app: App, realm: RealmRow, owner: UserRow) {
  await app.tx((tx) => createStarterContentTx(app, tx, realm, owner));
}

/**
 * Deactivates (or reactivates) a realm. Its users' requests are refused from the next one on
 * (REALM_DEACTIVATED), and its event queues are dropped so no client keeps polling a closed realm.
 */
export async function setRealmDeactivated(app: App, realm: RealmRow, deactivated: boolean) {
  if (realm.deactivated === deactivated) throw invalidParam(deactivated ? "The organization is already deactivated" : "The organization is not deactivated");
  await app.tx(async (tx) => {
    await updateRealm(tx.db, realm.id, { deactivated });
    if (deactivated) await revokeRealmSessionsTx(tx, realm.id); // in the database, so every process sees it at once
  });
  if (deactivated) app.revoke({ realmId: realm.id });
}
