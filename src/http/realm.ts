import type { App } from "../context";
import type { RealmRow } from "../db/schema";
import { invalidRealm } from "../domain/errors";
import { findRealmByStringId, listRealms } from "../store/realms";

/**
 * The realm a request is for, from its Host header: a subdomain of the external URL's host names a
 * realm by string_id; the external host itself, an IP address or any other name gets the default realm.
 */
export function realmForHost(app: App, hostHeader: string | null): RealmRow {
  const realm = app.reads.get(`host:${hostHeader ?? ""}`, () => lookupHost(app, hostHeader));
  if (!realm) throw invalidRealm();
  return realm;
}

function lookupHost(app: App, hostHeader: string | null): RealmRow | undefined {
  const host = (hostHeader ?? "")
    .toLowerCase()
    .replace(/:\d+$/, "")
    .replace(/^\[|\]$/g, "");
  const base = new URL(app.config.externalUrl).hostname.toLowerCase();
  if (host && host !== base && host.endsWith("." + base)) return findRealmByStringId(app.db, host.slice(0, -(base.length + 1)));
  return findDefaultRealm(app);
}

export function defaultRealm(app: App): RealmRow {
  const realm = findDefaultRealm(app);
  if (!realm) throw invalidRealm();
  return realm;
}

const findDefaultRealm = (app: App): RealmRow | undefined =>
  (app.config.defaultRealm ? findRealmByStringId(app.db, app.config.defaultRealm) : undefined) ?? findRealmByStringId(app.db, "") ?? listRealms(app.db)[0];
