// Plugin objects as the API shows them (GET /ext/plugins, register's ext_plugins, ext_plugin events).
import type { App } from "../context";
import type { RealmRow, UserRow } from "../db/schema";
import { isDiscardedDraft, removalIsFinal } from "../domain/plugins";
import { canSeePlugin } from "../access/plugins";
import type { Db } from "../db/client";
import type { PluginRow } from "../db/schema";
import { toApiPlugin } from "../domain/plugins";
import * as store from "../store/plugins";

export async function pluginObjects(db: Db, rows: PluginRow[]) {
  const ids = rows.map((r) => r.id);
  const slots = await store.listSlots(db, ids);
  const links = await store.listLinks(db, ids);
  return rows.map((p) =>
    toApiPlugin(
      p,
      slots.filter((s) => s.installId === p.id),
      links.filter((l) => l.installId === p.id),
    ),
  );
}

export const pluginObject = async (db: Db, p: PluginRow) => (await pluginObjects(db, [p]))[0]!;

/** The installs a user (null: the operator) may see, as objects; not those removed more than a week ago. */
export async function visiblePluginObjects(app: App, realm: RealmRow, user: UserRow | null) {
  const now = app.now();
  const rows = (await store.listPlugins(app.db, realm.id)).filter((p) => !removalIsFinal(p, now) && !isDiscardedDraft(p) && (!user || canSeePlugin(user, p)));
  return await pluginObjects(app.db, rows);
}
