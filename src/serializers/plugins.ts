// Plugin objects as the API shows them (GET /ext/plugins, register's ext_plugins, ext_plugin events).
import type { App } from "../context";
import type { RealmRow, UserRow } from "../db/schema";
import { isDiscardedDraft, removalIsFinal } from "../domain/plugins";
import { canSeePlugin } from "../access/plugins";
import type { Db } from "../db/client";
import type { PluginRow } from "../db/schema";
import { toApiPlugin } from "../domain/plugins";
import * as store from "../store/plugins";

export function pluginObjects(db: Db, rows: PluginRow[]) {
  const ids = rows.map((r) => r.id);
  const slots = store.listSlots(db, ids);
  const links = store.listLinks(db, ids);
  return rows.map((p) =>
    toApiPlugin(
      p,
      slots.filter((s) => s.installId === p.id),
      links.filter((l) => l.installId === p.id),
    ),
  );
}

export const pluginObject = (db: Db, p: PluginRow) => pluginObjects(db, [p])[0]!;

/** The installs a user (null: the operator) may see, as objects; not those removed more than a week ago. */
export function visiblePluginObjects(app: App, realm: RealmRow, user: UserRow | null) {
  const now = app.now();
  const rows = store.listPlugins(app.db, realm.id).filter((p) => !removalIsFinal(p, now) && !isDiscardedDraft(p) && (!user || canSeePlugin(user, p)));
  return pluginObjects(app.db, rows);
}
