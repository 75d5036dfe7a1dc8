import type { App } from "../context";
import type { UserRow } from "../db/schema";
import type { Tx } from "../db/tx";
import { invalidParam, linkifierNotFound, linkifierPatternRealmAlreadyExists, mustBeAdmin, orderedListMustEnumerateAll } from "../domain/errors";
import { checkLinkifier, toApiLinkifier } from "../domain/linkifiers";
import { isAdmin } from "../domain/roles";
import { toRealm } from "../events/types";
import * as store from "../store/linkifiers";
import { forgetLinkifiers } from "./render";

async function check(app: App, admin: UserRow, pattern: string, urlTemplate: string, exceptId?: number) {
  if (!isAdmin(admin.role)) throw mustBeAdmin();
  const bad = checkLinkifier(pattern, urlTemplate);
  if (bad) throw invalidParam(bad);
  const same = await store.findLinkifierByPattern(app.db, admin.realmId, pattern);
  if (same && same.id !== exceptId) throw linkifierPatternRealmAlreadyExists();
}

/** Every change re-sends the realm's whole ordered list, as Zulip does, and drops the renderer's copy. */
async function emitAll(app: App, tx: Tx, realmId: number) {
  forgetLinkifiers(app, realmId);
  tx.emit({ type: "realm_linkifiers", realm_linkifiers: (await store.listLinkifiers(tx.db, realmId)).map(toApiLinkifier) }, toRealm(realmId));
}

export const listLinkifiers = async (app: App, user: UserRow) => ({ linkifiers: (await store.listLinkifiers(app.db, user.realmId)).map(toApiLinkifier) });

export async function addLinkifier(app: App, admin: UserRow, pattern: string, urlTemplate: string) {
  await check(app, admin, pattern, urlTemplate);
  return await app.tx(async (tx) => {
    const order = (await store.listLinkifiers(tx.db, admin.realmId)).length;
    const row = await store.insertLinkifier(tx.db, { realmId: admin.realmId, pattern, urlTemplate, order });
    await emitAll(app, tx, admin.realmId);
    return { id: row.id };
  });
}

export async function updateLinkifier(app: App, admin: UserRow, id: number, pattern: string, urlTemplate: string) {
  if (!(await store.findLinkifier(app.db, admin.realmId, id))) throw linkifierNotFound();
  await check(app, admin, pattern, urlTemplate, id);
  await app.tx(async (tx) => {
    await store.updateLinkifier(tx.db, id, { pattern, urlTemplate });
    await emitAll(app, tx, admin.realmId);
  });
  return {};
}

export async function removeLinkifier(app: App, admin: UserRow, id: number) {
  if (!isAdmin(admin.role)) throw mustBeAdmin();
  if (!(await store.findLinkifier(app.db, admin.realmId, id))) throw linkifierNotFound();
  await app.tx(async (tx) => {
    await store.deleteLinkifier(tx.db, id);
    await emitAll(app, tx, admin.realmId);
  });
  return {};
}

/** PATCH /realm/linkifiers: the new order, naming every linkifier exactly once. */
export async function reorderLinkifiers(app: App, admin: UserRow, ids: number[]) {
  if (!isAdmin(admin.role)) throw mustBeAdmin();
  const current = await store.listLinkifiers(app.db, admin.realmId);
  const same = ids.length === current.length && new Set(ids).size === ids.length && current.every((l) => ids.includes(l.id));
  if (!same) throw orderedListMustEnumerateAll();
  await app.tx(async (tx) => {
    for (const [order, id] of ids.entries()) await store.updateLinkifier(tx.db, id, { order });
    await emitAll(app, tx, admin.realmId);
  });
  return {};
}
