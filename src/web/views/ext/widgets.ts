// The widgets a user sees, as the contract puts them: every widget of every visible install, with the
// user's preference (or, where they chose nothing, the team's `widget_defaults`), its latest documents,
// and the figure it shows at rest.
import { api } from "../../api/client";
import { sayError } from "../../ui/toast";
import {
  extPlugins,
  extWidgetPrefs,
  extWidgets,
  scopeKey,
  widgetKey,
  type Plugin,
  type WidgetPreference,
  type WidgetScope,
  type WidgetSpec,
} from "../../store/ext";

export interface UserWidget {
  plugin: Plugin;
  key: string;
  spec: WidgetSpec;
  team: { nav: "shown" | "menu" | "hidden"; column: boolean };
  pref: WidgetPreference;
  label: string;
}

export function userWidgets(): UserWidget[] {
  const out: UserWidget[] = [];
  for (const plugin of extPlugins.value.values()) {
    if (plugin.state === "removed" || plugin.state === "draft") continue;
    Object.entries(plugin.manifest.provides?.widgets ?? {}).forEach(([key, spec], i) => {
      const team = plugin.widget_defaults[key] ?? { nav: "shown", column: true };
      const pref = extWidgetPrefs.value.get(widgetKey(plugin.id, key)) ?? {
        shown: team.nav === "shown",
        position: i,
        label: "",
        filters: {},
        alerts: {},
        in_column: team.column,
        seen: null,
        rest_figure: spec.figures?.[0] ?? null,
      };
      out.push({ plugin, key, spec, team, pref, label: pref.label || spec.title || key });
    });
  }
  return out.sort((a, b) => a.pref.position - b.pref.position || a.plugin.id - b.plugin.id);
}

/** The documents of a widget: one for an organization widget, one per fitting link for a link widget. */
export function widgetScopes(w: UserWidget): { linkId: number | null; scope: WidgetScope | undefined }[] {
  if (w.spec.scope !== "link") return [{ linkId: null, scope: extWidgets.value.get(scopeKey(w.plugin.id, w.key, null)) }];
  return w.plugin.links
    .filter((l) => !w.spec.link_kinds || w.spec.link_kinds.includes(l.kind))
    .map((l) => ({ linkId: l.id, scope: extWidgets.value.get(scopeKey(w.plugin.id, w.key, l.id)) }));
}

/** What a widget shows at rest: its chosen figure's value in the document's data (summed over links). */
export function restFigure(w: UserWidget, linkId?: number): string | null {
  let total: number | null = null;
  let text: string | null = null;
  for (const s of widgetScopes(w)) {
    if (linkId !== undefined && s.linkId !== linkId) continue;
    const doc = s.scope?.document;
    const figure = w.pref.rest_figure ?? doc?.rest?.figure;
    if (!doc || !figure) continue;
    const v = doc.data?.[figure];
    if (typeof v === "number") total = (total ?? 0) + v;
    else if (v !== undefined && v !== null) text = String(v);
    if (doc.rest?.sizer === "percent" && total !== null) return `${total}%`;
  }
  return total !== null ? String(total) : text;
}

export const setPreference = (w: { plugin: { id: number }; key: string }, params: Record<string, unknown>) =>
  api.patch(`ext/widgets/${w.plugin.id}/${encodeURIComponent(w.key)}/preference`, params).catch(sayError);

export interface FiringAlert {
  name: string;
  title: string;
  value: number;
  threshold: number;
}

/** The alerts the user watches whose figure (the document's `data[name]`, summed over links) reached
 * the user's threshold. */
export function firingAlerts(w: UserWidget): FiringAlert[] {
  const out: FiringAlert[] = [];
  for (const [name, threshold] of Object.entries(w.pref.alerts)) {
    let value: number | null = null;
    for (const s of widgetScopes(w)) {
      const v = s.scope?.document?.data?.[name];
      if (typeof v === "number") value = (value ?? 0) + v;
    }
    if (value !== null && value >= threshold) out.push({ name, title: w.spec.alerts?.[name]?.title || name, value, threshold });
  }
  return out;
}

/** The address of a widget, or of one row's own document (`item`, with its link for link widgets). */
export const widgetHref = (installId: number, widget: string, item = "", linkId: number | null = null) =>
  `#ext/widget/${installId}/${encodeURIComponent(widget)}${item ? `/${encodeURIComponent(item)}${linkId !== null ? `/${linkId}` : ""}` : ""}`;
