// Widget documents and preferences as register and GET /ext/widgets show them.
import type { App } from "../context";
import type { Db } from "../db/client";
import type { PluginRow, RealmRow, UserRow } from "../db/schema";
import { widgetDefaults } from "../domain/plugins";
import { EMPTY_PREFERENCE, toApiPreference, toApiWidgetDocument } from "../domain/widgets";
import { listLinks, listPlugins } from "../store/plugins";
import * as store from "../store/widgets";
import { canSeePlugin } from "../access/plugins";
import { canSeeScope } from "../access/widgets";
import { filterInOrder } from "../lib/in-order";

export const preferenceOf = async (db: Db, user: UserRow, p: PluginRow, widget: string) => {
  const row = await store.findPreference(db, user.id, p.id, widget);
  const stored = row ? { ...row } : { ...EMPTY_PREFERENCE };
  return toApiPreference(p.manifest, widget, widgetDefaults(p.manifest, p.widgetDefaults)[widget]!, stored);
};

/** register's `ext_widgets`: every document of every scope the user sees. */
export async function visibleWidgetDocuments(app: App, realm: RealmRow, user: UserRow) {
  const plugins = (await listPlugins(app.db, realm.id)).filter((p) => p.dateRemoved === null && canSeePlugin(user, p));
  const links = new Map(
    (
      await listLinks(
        app.db,
        plugins.map((p) => p.id),
      )
    ).map((l) => [l.id, l]),
  );
  const byId = new Map(plugins.map((p) => [p.id, p]));
  const readable = new Map<number, boolean>();
  const documents = await store.listDocuments(
    app.db,
    plugins.map((p) => p.id),
  );
  return (
    await filterInOrder(documents, async (d) => {
      if (!d.linkId) return true;
      const link = links.get(d.linkId);
      if (!link) return false;
      if (!readable.has(link.streamId)) readable.set(link.streamId, await canSeeScope(app.db, user, byId.get(d.installId)!, link));
      return readable.get(link.streamId)!;
    })
  ).map(toApiWidgetDocument);
}

/** register's `ext_widget_preferences`: the user's preference for every widget of every install they see. */
export async function widgetPreferencesOf(app: App, realm: RealmRow, user: UserRow) {
  const plugins = (await listPlugins(app.db, realm.id)).filter((p) => p.dateRemoved === null && canSeePlugin(user, p));
  const preferences = [];
  for (const p of plugins)
    for (const widget of Object.keys(p.manifest.provides.widgets ?? {}))
      preferences.push({ install_id: p.id, widget, preference: await preferenceOf(app.db, user, p, widget) });
  return preferences;
}
