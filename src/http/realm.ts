import type { App } from "../context";
import type { RealmRow } from "../db/schema";
import { invalidRealm } from "../domain/errors";
import { findRealmByStringId, listRealms } from "../store/realms";

/**
 * The realm a request is for, from its Host header: a subdomain of the external URL's host names a
 * realm by string_id; the external host itself, an IP address or any other name gets the default realm.
 */
export function realmForHost(app: App, hostHeader: string | null): RealmRow | Promise<RealmRow> {
  const key = `host:${hostHeader ?? ""}`;
  return app.reads.peek<RealmRow>(key) ?? found(app.reads.get(key, async () => await lookupHost(app, hostHeader)));
}

async function found(realm: Promise<RealmRow | undefined>): Promise<RealmRow> {
  const r = await realm;
  if (!r) throw invalidRealm();
  return r;
}

async function lookupHost(app: App, hostHeader: string | null): Promise<RealmRow | undefined> {
  const host = (hostHeader ?? "")
    .toLowerCase()
    .replace(/:\d+$/, "")
    .replace(/^\[|\]$/g, "");
  const base = new URL(app.config.externalUrl).hostname.toLowerCase();
  if (host && host !== base && host.endsWith("." + base)) return await findRealmByStringId(app.db, host.slice(0, -(base.length + 1)));
  return await findDefaultRealm(app);
}

export async function defaultRealm(app: App): Promise<RealmRow> {
  const realm = await findDefaultRealm(app);
  if (!realm) throw invalidRealm();
  return realm;
}

const findDefaultRealm = async (app: App): Promise<RealmRow | undefined> =>
  (app.config.defaultRealm ? await findRealmByStringId(app.db, app.config.defaultRealm) : undefined) ??
  (await findRealmByStringId(app.db, "")) ??
  (await listRealms(app.db))[0];
