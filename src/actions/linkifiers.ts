import type { App } from "../context";
import type { UserRow } from "../db/schema";
import type { Tx } from "../db/tx";
import { invalidParam, linkifierNotFound, linkifierPatternRealmAlreadyExists, mustBeAdmin, orderedListMustEnumerateAll } from "../domain/errors";
import { checkLinkifier, toApiLinkifier } from "../domain/linkifiers";
import { isAdmin } from "../domain/roles";
import { toRealm } from "../events/types";
import * as store from "../store/linkifiers";
import { forgetLinkifiers } from "./render";

function check(app: App, admin: UserRow, pattern: string, urlTemplate: string, exceptId?: number) {
  if (!isAdmin(admin.role)) throw mustBeAdmin();
  const bad = checkLinkifier(pattern, urlTemplate);
  if (bad) throw invalidParam(bad);
  const same = store.findLinkifierByPattern(app.db, admin.realmId, pattern);
  if (same && same.id !== exceptId) throw linkifierPatternRealmAlreadyExists();
}

/** Every change re-sends the realm's whole ordered list, as Zulip does, and drops the renderer's copy. */
function emitAll(app: App, tx: Tx, realmId: number) {
  forgetLinkifiers(app, realmId);
  tx.emit({ type: "realm_linkifiers", realm_linkifiers: store.listLinkifiers(tx.db, realmId).map(toApiLinkifier) }, toRealm(realmId));
}

export const listLinkifiers = (app: App, user: UserRow) => ({ linkifiers: store.listLinkifiers(app.db, user.realmId).map(toApiLinkifier) });

export function addLinkifier(app: App, admin: UserRow, pattern: string, urlTemplate: string) {
  check(app, admin, pattern, urlTemplate);
  return app.tx((tx) => {
    const order = store.listLinkifiers(tx.db, admin.realmId).length;
    const row = store.insertLinkifier(tx.db, { realmId: admin.realmId, pattern, urlTemplate, order });
    emitAll(app, tx, admin.realmId);
    return { id: row.id };
  });
}

export function updateLinkifier(app: App, admin: UserRow, id: number, pattern: string, urlTemplate: string) {
  if (!store.findLinkifier(app.db, admin.realmId, id)) throw linkifierNotFound();
  check(app, admin, pattern, urlTemplate, id);
  app.tx((tx) => {
    store.updateLinkifier(tx.db, id, { pattern, urlTemplate });
    emitAll(app, tx, admin.realmId);
  });
  return {};
}

export function removeLinkifier(app: App, admin: UserRow, id: number) {
  if (!isAdmin(admin.role)) throw mustBeAdmin();
  if (!store.findLinkifier(app.db, admin.realmId, id)) throw linkifierNotFound();
  app.tx((tx) => {
    store.deleteLinkifier(tx.db, id);
    emitAll(app, tx, admin.realmId);
  });
  return {};
}

/** PATCH /realm/linkifiers: the new order, naming every linkifier exactly once. */
export function reorderLinkifiers(app: App, admin: UserRow, ids: number[]) {
  if (!isAdmin(admin.role)) throw mustBeAdmin();
  const current = store.listLinkifiers(app.db, admin.realmId);
  const same = ids.length === current.length && new Set(ids).size === ids.length && current.every((l) => ids.includes(l.id));
  if (!same) throw orderedListMustEnumerateAll();
  app.tx((tx) => {
    ids.forEach((id, order) => store.updateLinkifier(tx.db, id, { order }));
    emitAll(app, tx, admin.realmId);
  });
  return {};
}
