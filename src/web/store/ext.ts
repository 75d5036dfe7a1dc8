// The extension layer's slice of the store: plugins, organization secrets, widget documents and the
// user's widget preferences, agent runs, and the workspace/README events, all fed by register and
// the ext_* events (applyExtInitial / applyExtEvent, called from state.ts). It imports nothing of the
// rest of the store, so state.ts can call it without an import circle.
import { batch, signal, type Signal } from "@preact/signals";

export interface SecretSlot {
  name: string;
  title: string;
  required: boolean;
  set: boolean;
  hint: string;
  set_by: number | null;
  date_set: number | null;
}
export interface PluginLink {
  id: number;
  kind: string;
  value: string;
  stream_id: number;
  topic: string | null;
}
export interface WidgetSpec {
  title?: string;
  scope?: "organization" | "link";
  link_kinds?: string[];
  facets?: Record<string, { title: string; values: string[] }>;
  alerts?: Record<string, { title: string; min: number; max: number }>;
  figures?: string[];
}
export interface SettingField {
  key: string;
  title: string;
  type: "string" | "text" | "url" | "integer" | "number" | "boolean" | "choice" | "channel";
  required?: boolean;
  default?: unknown;
  choices?: string[];
  min?: number;
  max?: number;
  max_length?: number;
}
export interface Plugin {
  id: number;
  plugin: string;
  name: string;
  version: string;
  source_kind: "local" | "codehost" | "remote";
  source: string;
  source_repository_id: number | null;
  source_path: string;
  sha: string;
  manifest: {
    description?: string;
    glyph?: string;
    provides?: {
      settings?: SettingField[];
      secrets?: { name: string; title: string; required?: boolean }[];
      links?: { kind: string; title: string }[];
      widgets?: Record<string, WidgetSpec>;
      tools?: { name: string; description?: string }[];
    };
  };
  state: "waiting" | "starting" | "running" | "failed" | "removed" | "draft";
  detail: string;
  bot_user_id: number;
  installed_by: number | null;
  made_by: number | null;
  made_in_stream_id: number | null;
  made_in_topic: string | null;
  settings: Record<string, unknown>;
  secrets: SecretSlot[];
  links: PluginLink[];
  disabled: boolean;
  widget_defaults: Record<string, { nav: "shown" | "menu" | "hidden"; column: boolean }>;
  disabled_tools: string[];
  date_installed: number;
  date_removed: number | null;
}
export interface OrgSecret {
  name: string;
  hint: string;
  note: string;
  added_by: number | null;
  date_added: number;
  replaced_by: number | null;
  date_replaced: number | null;
  date_used: number | null;
}
export interface WidgetDocument {
  version?: number;
  data?: Record<string, unknown>;
  rest?: { figure?: string; sizer?: string };
  blocks?: { type: string; label?: string; items?: unknown[] }[];
}
export interface WidgetScope {
  install_id: number;
  widget: string;
  link_id: number | null;
  item: string;
  version: number;
  document: WidgetDocument | null;
}
export interface WidgetPreference {
  shown: boolean;
  position: number;
  label: string;
  filters: Record<string, string>;
  alerts: Record<string, number>;
  in_column: boolean;
  seen: number | null;
  rest_figure: string | null;
}
export interface AgentRun {
  id: number;
  state: "running" | "done" | "failed" | "cancelled";
  requested_by: number;
  stream_id: number | null;
  topic: string | null;
  message_id: number;
  turns: number;
  started: number;
  ended: number | null;
  exit_status: number | null;
}

export const extPlugins = signal(new Map<number, Plugin>());
export const extSecrets = signal(new Map<string, OrgSecret>());
/** Latest document per scope, keyed by scopeKey. */
export const extWidgets = signal(new Map<string, WidgetScope>());
/** The user's preference per widget, keyed by widgetKey. */
export const extWidgetPrefs = signal(new Map<string, WidgetPreference>());
/** Runs this tab knows of: register's running ones, then every ext_agent_run event. */
export const extRuns = signal(new Map<number, AgentRun>());
/** Bumped by every ext_workspace event, so views showing a topic's workspace refetch it. */
export const workspaceVersion = signal(0);
/** Listeners for README collaboration events (the open editor). */
export const readmeListeners = new Set<(e: { op: string; workspace_uuid: string; client: string; update?: string; awareness?: string }) => void>();

export const widgetKey = (installId: number, widget: string) => `${installId}:${widget}`;
export const scopeKey = (installId: number, widget: string, linkId: number | null, item = "") => `${installId}:${widget}:${linkId ?? ""}:${item}`;

const put = <K, V>(s: Signal<Map<K, V>>, f: (m: Map<K, V>) => void) => {
  const copy = new Map(s.value);
  f(copy);
  s.value = copy;
};

export function applyExtInitial(r: any) {
  batch(() => {
    extPlugins.value = new Map((r.ext_plugins ?? []).map((p: Plugin) => [p.id, p]));
    extSecrets.value = new Map((r.ext_secrets ?? []).map((s: OrgSecret) => [s.name, s]));
    extWidgets.value = new Map((r.ext_widgets ?? []).map((w: WidgetScope) => [scopeKey(w.install_id, w.widget, w.link_id, w.item), w]));
    extWidgetPrefs.value = new Map((r.ext_widget_preferences ?? []).map((p: any) => [widgetKey(p.install_id, p.widget), p.preference]));
    extRuns.value = new Map([...extRuns.value, ...(r.ext_agent_runs ?? []).map((x: AgentRun) => [x.id, x] as const)]);
    workspaceVersion.value++;
  });
}

export function applyExtEvent(e: any) {
  switch (e.type) {
    case "ext_plugin":
      if (e.op === "remove") put(extPlugins, (m) => m.delete(e.install_id));
      else put(extPlugins, (m) => m.set(e.plugin.id, e.plugin));
      break;
    case "ext_secret":
      if (e.op === "remove") put(extSecrets, (m) => m.delete(e.name));
      else put(extSecrets, (m) => m.set(e.secret.name, e.secret));
      break;
    case "ext_widget":
      put(extWidgets, (m) => m.set(scopeKey(e.install_id, e.widget, e.link_id, e.item), e));
      break;
    case "ext_widget_preference":
      put(extWidgetPrefs, (m) => m.set(widgetKey(e.install_id, e.widget), e.preference));
      break;
    case "ext_agent_run":
      put(extRuns, (m) => m.set(e.run.id, e.run));
      break;
    case "ext_workspace":
      workspaceVersion.value++;
      break;
    case "ext_readme":
      for (const f of readmeListeners) f(e);
      break;
  }
}
