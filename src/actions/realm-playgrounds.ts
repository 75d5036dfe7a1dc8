// POST /realm/playgrounds and DELETE /realm/playgrounds/{id}: administrators configure code playgrounds;
// every change sends the realm's whole list, as Zulip does.
import type { App } from "../context";
import type { UserRow } from "../db/schema";
import type { Tx } from "../db/tx";
import { invalidParam, invalidPlayground, mustBeAdmin, realmPlaygroundRealmPygmentsLanguage } from "../domain/errors";
import { checkPlayground, toApiPlayground } from "../domain/realm-playgrounds";
import { isAdmin } from "../domain/roles";
import { toRealm } from "../events/types";
import * as store from "../store/realm-playgrounds";
import { p, type Args } from "../domain/params";

const emitAll = async (tx: Tx, realmId: number) =>
  tx.emit({ type: "realm_playgrounds", realm_playgrounds: (await store.listPlaygrounds(tx.db, realmId)).map(toApiPlayground) }, toRealm(realmId));

export const addPlaygroundParams = {
  name: p.str({ max: 50 }),
  pygments_language: p.str({ max: 40 }),
  url_template: p.str(),
};

export async function addPlayground(app: App, admin: UserRow, a: Args<typeof addPlaygroundParams>) {
  if (!isAdmin(admin.role)) throw mustBeAdmin();
  const bad = checkPlayground(a.name, a.pygments_language, a.url_template);
  if (bad) throw invalidParam(bad);
  if (await store.findPlaygroundByName(app.db, admin.realmId, a.pygments_language, a.name)) throw realmPlaygroundRealmPygmentsLanguage();
  return await app.tx(async (tx) => {
    const row = await store.insertPlayground(tx.db, {
      realmId: admin.realmId,
      name: a.name,
      pygmentsLanguage: a.pygments_language,
      urlTemplate: a.url_template,
    });
    await emitAll(tx, admin.realmId);
    return { id: row.id };
  });
}

export async function removePlayground(app: App, admin: UserRow, id: number) {
  if (!isAdmin(admin.role)) throw mustBeAdmin();
  if (!(await store.findPlayground(app.db, admin.realmId, id))) throw invalidPlayground();
  await app.tx(async (tx) => {
    await store.deletePlayground(tx.db, id);
    await emitAll(tx, admin.realmId);
  });
  return {};
}
