import type { App } from "../context";
import type { RealmRow, UserRow } from "../db/schema";
import { domainExists, mustBeOwner, noSuchDomain } from "../domain/errors";
import { checkDomain, toApiRealmDomain } from "../domain/realm-domains";
import { realmSetting, withSetting } from "../domain/realm-settings";
import { isOwner } from "../domain/roles";
import { toRealm } from "../events/types";
import * as store from "../store/realm-domains";
import { updateRealm } from "../store/realms";

// Allowed email domains: any user may read them; only owners change them (level 143).

export const listDomains = async (app: App, realm: RealmRow) => ({ domains: (await store.listRealmDomains(app.db, realm.id)).map(toApiRealmDomain) });

export async function addDomain(app: App, realm: RealmRow, user: UserRow, raw: string, allowSubdomains: boolean) {
  if (!isOwner(user.role)) throw mustBeOwner();
  const domain = checkDomain(raw);
  if (await store.findRealmDomain(app.db, realm.id, domain)) throw domainExists(domain);
  return await app.tx(async (tx) => {
    const row = await store.insertRealmDomain(tx.db, realm.id, domain, allowSubdomains);
    tx.emit({ type: "realm_domains", op: "add", realm_domain: toApiRealmDomain(row) }, toRealm(realm.id));
    return { new_domain: [row.id, row.domain] };
  });
}

export async function changeDomain(app: App, realm: RealmRow, user: UserRow, raw: string, allowSubdomains: boolean) {
  if (!isOwner(user.role)) throw mustBeOwner();
  const row = await store.findRealmDomain(app.db, realm.id, raw.trim().toLowerCase());
  if (!row) throw noSuchDomain(raw);
  await app.tx(async (tx) => {
    const updated = await store.updateRealmDomain(tx.db, row.id, allowSubdomains);
    tx.emit({ type: "realm_domains", op: "change", realm_domain: toApiRealmDomain(updated) }, toRealm(realm.id));
  });
  return {};
}

/** Removing the last domain also lifts the restriction to domains, which would otherwise admit nobody. */
export async function removeDomain(app: App, realm: RealmRow, user: UserRow, raw: string) {
  if (!isOwner(user.role)) throw mustBeOwner();
  const row = await store.findRealmDomain(app.db, realm.id, raw.trim().toLowerCase());
  if (!row) throw noSuchDomain(raw);
  const last = (await store.listRealmDomains(app.db, realm.id)).length === 1;
  await app.tx(async (tx) => {
    await store.deleteRealmDomain(tx.db, row.id);
    tx.emit({ type: "realm_domains", op: "remove", domain: row.domain }, toRealm(realm.id));
    if (last && realmSetting(realm, "emails_restricted_to_domains") === true) {
      await updateRealm(tx.db, realm.id, { settings: withSetting(realm.settings, "emails_restricted_to_domains", false, false) });
      tx.emit({ type: "realm", op: "update", property: "emails_restricted_to_domains", value: false }, toRealm(realm.id));
    }
  });
  return {};
}
