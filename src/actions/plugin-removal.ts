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
export async function removePlugin(app: App, realm: RealmRow, actor: UserRow | null, id: number) {
  const p = await managed(app, realm, actor, id);
  if (p.state === "removed") throw pluginAlreadyRemoved();
  if (p.state === "draft") return await discardDraft(app, p);
  const row = await app.tx(async (tx) => {
    const bot = (await findUserById(tx.db, p.botUserId))!;
    if (bot.isActive) await deactivateUser(app, bot);
    const removed = await store.updatePlugin(tx.db, p.id, { dateRemoved: app.now() });
    return await setPluginStateTx(tx, removed, "removed", "");
  });
  pluginHostChanged(app);
  return { plugin: await pluginObject(app.db, row) };
}

/**
 * Discarding a draft: it was only ever its person's, so it stays a draft (never shown to anyone else),
 * stamped date_removed, and disappears; only its person hears of it.
 */
async function discardDraft(app: App, p: PluginRow) {
  const row = await app.tx(async (tx) => {
    const bot = (await findUserById(tx.db, p.botUserId))!;
    if (bot.isActive) await deactivateUser(app, bot);
    const gone = await store.updatePlugin(tx.db, p.id, { dateRemoved: app.now() });
    tx.emit({ type: "ext_plugin", op: "remove", install_id: p.id }, await pluginAudience(tx.db, gone));
    return gone;
  });
  return { plugin: await pluginObject(app.db, row) };
}

/** POST /ext/plugins/{install_id}/restore: within a week of removal, bot, settings, secrets and links come back and it starts again. */
export async function restorePlugin(app: App, realm: RealmRow, actor: UserRow | null, id: number) {
  if (actor) requireHumanMember(actor);
  await requireManager(app, realm, actor);
  const p = await pluginFor(app, realm, actor, id, { final: true });
  if (p.state !== "removed") throw pluginNotRemoved();
  if (removalIsFinal(p, app.now())) throw removalFinal();
  const row = await app.tx(async (tx) => {
    const bot = (await findUserById(tx.db, p.botUserId))!;
    if (!bot.isActive) await reactivateUserTx(app, tx, bot);
    const back = await store.updatePlugin(tx.db, p.id, { dateRemoved: null, revision: p.revision + 1 });
    const plan = await plannedState(tx.db, back);
    return await setPluginStateTx(tx, back, plan.state, plan.detail);
  });
  pluginHostChanged(app);
  return { plugin: await pluginObject(app.db, row) };
}

/**
 * Removals older than a week become final: the secret slots' values, the links and the widgets go, and members hear
 * the install is gone (op `remove`). The host runs this now and then.
 */
export async function finalizeRemovals(app: App) {
  const due = (await store.listRemovedBefore(app.db, app.now() - 7 * 24 * 3600)).filter((p) => p.state === "removed");
  for (const p of due) {
    if (!(await store.listSlots(app.db, [p.id])).length && !(await store.listLinks(app.db, [p.id])).length && !(await listDocuments(app.db, [p.id])).length)
      continue; // already final
    await app.tx(async (tx) => {
      await store.deleteSlots(tx.db, p.id);
      await store.deleteLinks(tx.db, p.id);
      await deleteWidgetsOfInstall(tx.db, p.id);
      tx.emit({ type: "ext_plugin", op: "remove", install_id: p.id }, await pluginAudience(tx.db, p));
    });
    rmSync(pluginDir(app, p.id), { recursive: true, force: true });
  }
}
