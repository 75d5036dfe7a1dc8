// Plugin installs: the one table of states and moves, requirements, and the `plugin` object.
import type { PluginLinkRow, PluginRow, PluginSecretRow } from "../db/schema";
import { pluginSettingProblem, unknownSetting, unknownTool, unknownWidget, widgetDefaultsNavMustOne } from "./errors";
import { NAV_VALUES, settingValueProblem, type Manifest } from "./plugin-manifest";

export const PLUGIN_STATES = ["waiting", "starting", "running", "failed", "removed", "draft"] as const;
export type PluginState = (typeof PLUGIN_STATES)[number];

/**
 * Every allowed move. waiting: something required is missing, or it is turned off (`detail` says
 * which); starting: its process runs but has not answered; running: it answered (or, remote, its
 * health check does); failed: five failures in a row (`detail`: its last lines); removed: undoable
 * for a week; draft: made by the agent, seen only by the person it is made for.
 */
export const PLUGIN_MOVES: Record<PluginState, readonly PluginState[]> = {
  draft: ["waiting", "starting", "removed"],
  waiting: ["waiting", "starting", "removed"],
  starting: ["starting", "running", "failed", "waiting", "removed"],
  running: ["starting", "failed", "waiting", "removed"],
  failed: ["starting", "waiting", "removed"],
  removed: ["waiting", "starting"],
};

export const canMove = (from: PluginState, to: PluginState) => PLUGIN_MOVES[from].includes(to);

/** States in which the host keeps a process (or, remote, a health check) going. */
export const isLive = (state: string) => state === "starting" || state === "running";

export const REMOVAL_UNDO_SECONDS = 7 * 24 * 3600;
export const FAILURES_BEFORE_FAILED = 5;

/** Removed more than a week ago: final, gone from every list. */
export const removalIsFinal = (p: PluginRow, now: number) => p.dateRemoved !== null && now - p.dateRemoved > REMOVAL_UNDO_SECONDS;

// ---- Settings ----

/** The settings whole: the manifest's defaults, then the values given. */
export function effectiveSettings(m: Manifest, given: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const f of m.provides.settings ?? []) {
    if (f.key in given) out[f.key] = given[f.key];
    else if (f.default !== undefined) out[f.key] = f.default;
  }
  return out;
}

/**
 * Applies a settings change to the stored values: each key must be a field of the form and its value
 * fit it; null puts a field back to its default. Returns the new stored values.
 */
export function applySettings(m: Manifest, stored: Record<string, unknown>, patch: Record<string, unknown>): Record<string, unknown> {
  const fields = new Map((m.provides.settings ?? []).map((f) => [f.key, f]));
  const out = { ...stored };
  for (const [k, v] of Object.entries(patch)) {
    const f = fields.get(k);
    if (!f) throw unknownSetting(k);
    if (v === null) {
      delete out[k];
      continue;
    }
    const problem = settingValueProblem(f, v);
    if (problem) throw pluginSettingProblem(k, problem);
    out[k] = v;
  }
  return out;
}

/** What a plugin still needs before it can run, in the words `detail` uses. */
export function missingRequirements(m: Manifest, settings: Record<string, unknown>, slotsSet: ReadonlySet<string>, orgSecrets: ReadonlySet<string>): string[] {
  const values = effectiveSettings(m, settings);
  const out: string[] = [];
  for (const f of m.provides.settings ?? []) if (f.required && (values[f.key] === undefined || values[f.key] === "")) out.push(`setting '${f.key}'`);
  for (const s of m.provides.secrets ?? []) if (s.required && !slotsSet.has(s.name)) out.push(`secret '${s.name}'`);
  for (const name of m.run?.secrets ?? []) if (!orgSecrets.has(name)) out.push(`organization secret '${name}'`);
  return out;
}

export const missingDetail = (missing: string[]) => `Missing ${missing.join(", ")}`;
export const DISABLED_DETAIL = "Turned off";

// ---- Widget defaults and tools ----

export type WidgetDefault = { nav: string; column: boolean };

export function widgetDefaults(m: Manifest, stored: PluginRow["widgetDefaults"]): Record<string, WidgetDefault> {
  const out: Record<string, WidgetDefault> = {};
  for (const [key, w] of Object.entries(m.provides.widgets ?? {}))
    out[key] = { nav: stored[key]?.nav ?? w.default?.nav ?? "shown", column: stored[key]?.column ?? w.default?.column ?? false };
  return out;
}

export function applyWidgetDefaults(m: Manifest, stored: PluginRow["widgetDefaults"], patch: Record<string, { nav?: string; column?: boolean }>) {
  const out = { ...stored };
  for (const [key, v] of Object.entries(patch)) {
    if (!m.provides.widgets?.[key]) throw unknownWidget(key);
    if (v.nav !== undefined && !(NAV_VALUES as readonly string[]).includes(v.nav)) throw widgetDefaultsNavMustOne(key, NAV_VALUES.join(", "));
    out[key] = { ...out[key], ...v };
  }
  return out;
}

export function checkDisabledTools(m: Manifest, tools: string[]): string[] {
  const known = new Set((m.provides.tools ?? []).map((t) => t.name));
  for (const t of tools) if (!known.has(t)) throw unknownTool(t);
  return [...new Set(tools)];
}

// ---- The plugin object ----

export const toApiSecretSlot = (m: Manifest, rows: PluginSecretRow[]) =>
  (m.provides.secrets ?? []).map((s) => {
    const row = rows.find((r) => r.name === s.name);
    return {
      name: s.name,
      title: s.title,
      required: s.required ?? false,
      set: !!row,
      hint: row?.hint ?? "",
      set_by: row?.setBy ?? null,
      date_set: row?.dateSet ?? null,
    };
  });

export const toApiLink = (l: PluginLinkRow) => ({ id: l.id, kind: l.kind, value: l.value, stream_id: l.streamId, topic: l.topic });

export const toApiPlugin = (p: PluginRow, slots: PluginSecretRow[], links: PluginLinkRow[]) => ({
  id: p.id,
  plugin: p.plugin,
  name: p.name,
  version: p.version,
  source_kind: p.sourceKind,
  source: p.source,
  source_repository_id: p.sourceRepositoryId,
  source_path: p.sourcePath,
  sha: p.sha,
  manifest: p.manifest,
  state: p.state,
  detail: p.detail,
  bot_user_id: p.botUserId,
  installed_by: p.installedBy,
  made_by: p.madeBy,
  made_by_run_id: p.madeByRunId,
  made_in_stream_id: p.madeInStreamId,
  made_in_topic: p.madeInTopic,
  made_in_message_id: p.madeInMessageId,
  settings: effectiveSettings(p.manifest, p.settings),
  secrets: toApiSecretSlot(p.manifest, slots),
  links: links.map(toApiLink),
  disabled: p.disabled,
  widget_defaults: widgetDefaults(p.manifest, p.widgetDefaults),
  disabled_tools: p.disabledTools,
  date_installed: p.dateInstalled,
  date_removed: p.dateRemoved,
});

export type ApiPlugin = ReturnType<typeof toApiPlugin>;

/** A draft its person discarded: gone for everyone (it never left that person). */
export const isDiscardedDraft = (p: { state: string; dateRemoved: number | null }) => p.state === "draft" && p.dateRemoved !== null;
