// Who sees and who manages a plugin install, and the plugin object they are shown.
import type { App } from "../context";
import type { Db } from "../db/client";
import type { PluginRow, RealmRow, UserRow } from "../db/schema";
import type { Tx } from "../db/tx";
import { mustBeAdmin, noSuchPlugin } from "../domain/errors";
import { isDiscardedDraft, removalIsFinal } from "../domain/plugins";
import { isGuest } from "../domain/roles";
import { toUsers, type Audience } from "../events/types";
import * as store from "../store/plugins";
import { hasRealmPermission } from "../store/permissions";
import { listUsers } from "../store/users";
import { requireHumanMember } from "./secrets";
import { canSeePlugin, isDraftOwner } from "../access/plugins";
import { pluginObject } from "../serializers/plugins";

// ---- Who sees and manages ----

/** Who hears of an install: the draft's person, or the organization's active members and bots (not guests). */
export async function pluginAudience(db: Db, p: PluginRow): Promise<Audience> {
  if (p.state === "draft") return toUsers([p.madeBy ?? p.installedBy].filter((x): x is number => x !== null));
  return toUsers((await listUsers(db, p.realmId)).filter((u) => u.isActive && !isGuest(u.role)).map((u) => u.id));
}

/**
 * `actor` null is the server's operator (CLI, runtime). Installing and managing plugins takes a human
 * member of the realm's can_manage_plugins_group (administrators by default), or the person a draft is
 * made for.
 */
export async function requireManager(app: App, realm: RealmRow, actor: UserRow | null, p?: PluginRow) {
  if (!actor) return;
  requireHumanMember(actor);
  if (!(await hasRealmPermission(app.db, realm, actor, "can_manage_plugins_group")) && !(p && isDraftOwner(actor, p))) throw mustBeAdmin();
}

/** An install of the realm the user may see; a removal older than a week is gone. */
export async function pluginFor(app: App, realm: RealmRow, user: UserRow | null, id: number, o: { final?: boolean } = {}): Promise<PluginRow> {
  const p = await store.findPlugin(app.db, id);
  if (!p || p.realmId !== realm.id || (user && !canSeePlugin(user, p)) || isDiscardedDraft(p)) throw noSuchPlugin();
  if (!o.final && removalIsFinal(p, app.now())) throw noSuchPlugin();
  return p;
}

export async function managed(app: App, realm: RealmRow, actor: UserRow | null, id: number): Promise<PluginRow> {
  if (actor) requireHumanMember(actor);
  const p = await pluginFor(app, realm, actor, id);
  await requireManager(app, realm, actor, p);
  return p;
}

// ---- The plugin object ----

export async function announcePluginTx(tx: Tx, p: PluginRow) {
  tx.emit({ type: "ext_plugin", op: "update", plugin: await pluginObject(tx.db, p) }, await pluginAudience(tx.db, p));
}
