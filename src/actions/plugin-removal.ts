// Removing a plugin install (undoable for a week), restoring it, and making old removals final.
import { rmSync } from "node:fs";
import type { App } from "../context";
import type { PluginRow, RealmRow, UserRow } from "../db/schema";
import { pluginAlreadyRemoved, pluginNotRemoved, removalFinal } from "../domain/errors";
import { removalIsFinal } from "../domain/plugins";
import * as store from "../store/plugins";
import { deleteWidgetsOfInstall, listDocuments } from "../store/widgets";
import { findUserById } from "../store/users";
import { requireHumanMember } from "./secrets";
import { deactivateUser, reactivateUserTx } from "./users";
import { managed, pluginAudience, pluginFor, requireManager } from "./plugin-access";
import { pluginObject } from "../serializers/plugins";
import { pluginHostChanged } from "./plugin-host";
import { pluginDir } from "./plugin-processes";
import { plannedState, setPluginStateTx } from "./plugin-states";

// ---- Removal and restore ----

/** DELETE /ext/plugins/{install_id}: stops it and deactivates its bot; undoable for a week. */
export function removePlugin(app: App, realm: RealmRow, actor: UserRow | null, id: number) {
  const p = managed(app, realm, actor, id);
  if (p.state === "removed") throw pluginAlreadyRemoved();
  if (p.state === "draft") return discardDraft(app, p);
  const row = app.tx((tx) => {
    const bot = findUserById(tx.db, p.botUserId)!;
    if (bot.isActive) deactivateUser(app, bot);
    const removed = store.updatePlugin(tx.db, p.id, { dateRemoved: app.now() });
    return setPluginStateTx(tx, removed, "removed", "");
  });
  pluginHostChanged(app);
  return { plugin: pluginObject(app.db, row) };
}

/**
 * Discarding a draft: it was only ever its person's, so it stays a draft (never shown to anyone else),
 * stamped date_removed, and disappears; only its person hears of it.
 */
function discardDraft(app: App, p: PluginRow) {
  const row = app.tx((tx) => {
    const bot = findUserById(tx.db, p.botUserId)!;
    if (bot.isActive) deactivateUser(app, bot);
    const gone = store.updatePlugin(tx.db, p.id, { dateRemoved: app.now() });
    tx.emit({ type: "ext_plugin", op: "remove", install_id: p.id }, pluginAudience(tx.db, gone));
    return gone;
  });
  return { plugin: pluginObject(app.db, row) };
}

/** POST /ext/plugins/{install_id}/restore: within a week of removal, bot, settings, secrets and links come back and it starts again. */
export function restorePlugin(app: App, realm: RealmRow, actor: UserRow | null, id: number) {
  if (actor) requireHumanMember(actor);
  requireManager(app, realm, actor);
  const p = pluginFor(app, realm, actor, id, { final: true });
  if (p.state !== "removed") throw pluginNotRemoved();
  if (removalIsFinal(p, app.now())) throw removalFinal();
  const row = app.tx((tx) => {
    const bot = findUserById(tx.db, p.botUserId)!;
    if (!bot.isActive) reactivateUserTx(app, tx, bot);
    const back = store.updatePlugin(tx.db, p.id, { dateRemoved: null, revision: p.revision + 1 });
    const plan = plannedState(tx.db, back);
    return setPluginStateTx(tx, back, plan.state, plan.detail);
  });
  pluginHostChanged(app);
  return { plugin: pluginObject(app.db, row) };
}

/**
 * Removals older than a week become final: the secret slots' values, the links and the widgets go, and members hear
 * the install is gone (op `remove`). The host runs this now and then.
 */
export function finalizeRemovals(app: App) {
  const due = store.listRemovedBefore(app.db, app.now() - 7 * 24 * 3600).filter((p) => p.state === "removed");
  for (const p of due) {
    if (!store.listSlots(app.db, [p.id]).length && !store.listLinks(app.db, [p.id]).length && !listDocuments(app.db, [p.id]).length) continue; // already final
    app.tx((tx) => {
      store.deleteSlots(tx.db, p.id);
      store.deleteLinks(tx.db, p.id);
      deleteWidgetsOfInstall(tx.db, p.id);
      tx.emit({ type: "ext_plugin", op: "remove", install_id: p.id }, pluginAudience(tx.db, p));
    });
    rmSync(pluginDir(app, p.id), { recursive: true, force: true });
  }
}
