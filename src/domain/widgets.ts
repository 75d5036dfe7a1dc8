// Widget documents and per-user widget preferences: checked against the plugin contract (the shape of a
// document) and the plugin's manifest (its widgets, figures, facets and alerts).
import type { WidgetDocumentRow, WidgetPreferenceRow } from "../db/schema";
import {
  alertsMustNumberFrom,
  widgetDocumentProblem,
  documentTooLargeLimitBytes,
  filtersMustOne,
  invalidFieldReset,
  unknownAlertWidget,
  unknownFacetWidget,
  unknownFigureWidget,
  unknownWidget,
} from "./errors";
import { BLOCK_TYPES, type Manifest, type WidgetSpec } from "./plugin-manifest";

export const WIDGET_LIMITS = { item: 200, label: 100, blocks: 50, items: 500, documentBytes: 256 * 1024, prefLabel: 24, position: 999 } as const;

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

export function widgetSpec(m: Manifest, key: string): WidgetSpec {
  const spec = m.provides.widgets?.[key];
  if (!spec) throw unknownWidget(key);
  return spec;
}

/**
 * The plugin contract's document: `version` (a positive integer), `data` (an object), `rest` (`figure`,
 * one of the widget's declared figures, and `sizer`, strings), `blocks` (a list of {type, label, items}
 * with a known type). Nothing else.
 */
export function checkDocument(spec: WidgetSpec, key: string, doc: Record<string, unknown>): Record<string, unknown> {
  const bad = (where: string, problem: string) => widgetDocumentProblem(where, problem);
  for (const k of Object.keys(doc)) if (!["version", "data", "rest", "blocks"].includes(k)) throw bad(`["${k}"]`, "is not a widget document field");
  if ("version" in doc && !(Number.isInteger(doc.version) && (doc.version as number) >= 1)) throw bad('["version"]', "must be a positive integer");
  if ("data" in doc && !isObject(doc.data)) throw bad('["data"]', "is not a dict");
  if ("rest" in doc) {
    const rest = doc.rest;
    if (!isObject(rest)) throw bad('["rest"]', "is not a dict");
    for (const k of Object.keys(rest)) if (k !== "figure" && k !== "sizer") throw bad(`["rest"]["${k}"]`, "is not a widget document field");
    for (const k of ["figure", "sizer"]) if (k in rest && typeof rest[k] !== "string") throw bad(`["rest"]["${k}"]`, "is not a string");
    if (typeof rest.figure === "string" && !(spec.figures ?? []).includes(rest.figure)) throw unknownFigureWidget(rest.figure, key);
  }
  if ("blocks" in doc) {
    const blocks = doc.blocks;
    if (!Array.isArray(blocks)) throw bad('["blocks"]', "is not a list");
    if (blocks.length > WIDGET_LIMITS.blocks) throw bad('["blocks"]', `has too many blocks (limit: ${WIDGET_LIMITS.blocks})`);
    blocks.forEach((b, i) => {
      const at = `["blocks"][${i}]`;
      if (!isObject(b)) throw bad(at, "is not a dict");
      for (const k of Object.keys(b)) if (!["type", "label", "items"].includes(k)) throw bad(`${at}["${k}"]`, "is not a widget document field");
      if (!(BLOCK_TYPES as readonly unknown[]).includes(b.type)) throw bad(`${at}["type"]`, `must be one of ${BLOCK_TYPES.join(", ")}`);
      if ("label" in b && (typeof b.label !== "string" || [...b.label].length > WIDGET_LIMITS.label))
        throw bad(`${at}["label"]`, `must be a string of at most ${WIDGET_LIMITS.label} characters`);
      if (!Array.isArray(b.items)) throw bad(`${at}["items"]`, "is not a list");
      if (b.items.length > WIDGET_LIMITS.items) throw bad(`${at}["items"]`, `has too many items (limit: ${WIDGET_LIMITS.items})`);
      b.items.forEach((it, j) => {
        if (!isObject(it)) throw bad(`${at}["items"][${j}]`, "is not a dict");
      });
    });
  }
  if (JSON.stringify(doc).length > WIDGET_LIMITS.documentBytes) throw documentTooLargeLimitBytes(WIDGET_LIMITS.documentBytes);
  return doc;
}

/** A push: the whole document when given, then `data` merged key by key into its data (null removes a key). */
export function applyPush(current: Record<string, unknown> | null, document: Record<string, unknown> | undefined, data: Record<string, unknown> | undefined) {
  const next: Record<string, unknown> = { ...(document ?? current ?? {}) };
  if (data) {
    const merged: Record<string, unknown> = { ...(isObject(next.data) ? next.data : {}) };
    for (const [k, v] of Object.entries(data)) {
      if (v === null) delete merged[k];
      else merged[k] = v;
    }
    next.data = merged;
  }
  return next;
}

export const toApiWidgetDocument = (d: WidgetDocumentRow) => ({
  install_id: d.installId,
  widget: d.widget,
  link_id: d.linkId || null,
  item: d.item,
  version: d.version,
  document: d.document,
});

// ---- Preferences ----

export const PREFERENCE_FIELDS = ["shown", "position", "label", "filters", "alerts", "in_column", "rest_figure", "seen"] as const;
export type PreferenceField = (typeof PREFERENCE_FIELDS)[number];

export interface PreferencePatch {
  shown?: boolean;
  position?: number;
  label?: string;
  filters?: Record<string, unknown>;
  alerts?: Record<string, unknown>;
  in_column?: boolean;
  reset?: string[];
  seen?: boolean;
  rest_figure?: string;
}

type Stored = Omit<WidgetPreferenceRow, "userId" | "installId" | "widget">;
export const EMPTY_PREFERENCE: Stored = { shown: null, position: null, label: null, filters: null, alerts: null, inColumn: null, restFigure: null, seen: null };

const COLUMN: Record<PreferenceField, keyof Stored> = {
  shown: "shown",
  position: "position",
  label: "label",
  filters: "filters",
  alerts: "alerts",
  in_column: "inColumn",
  rest_figure: "restFigure",
  seen: "seen",
};

/** Applies a change: `reset` first (back to the team's values), then each field given, checked against the widget's manifest. */
export function applyPreference(spec: WidgetSpec, key: string, stored: Stored, a: PreferencePatch, now: number): Stored {
  const out = { ...stored };
  for (const name of a.reset ?? []) {
    if (!(PREFERENCE_FIELDS as readonly string[]).includes(name)) throw invalidFieldReset(name);
    out[COLUMN[name as PreferenceField]] = null as never;
  }
  if (a.shown !== undefined) out.shown = a.shown;
  if (a.position !== undefined) out.position = a.position;
  if (a.label !== undefined) out.label = a.label === "" ? null : a.label;
  if (a.in_column !== undefined) out.inColumn = a.in_column;
  if (a.filters !== undefined) {
    const filters: Record<string, string> = {};
    for (const [facet, v] of Object.entries(a.filters)) {
      const f = spec.facets?.[facet];
      if (!f) throw unknownFacetWidget(facet, key);
      if (typeof v !== "string" || !f.values.includes(v)) throw filtersMustOne(facet, f.values.join(", "));
      filters[facet] = v;
    }
    out.filters = filters;
  }
  if (a.alerts !== undefined) {
    const alerts: Record<string, number> = {};
    for (const [alert, v] of Object.entries(a.alerts)) {
      const al = spec.alerts?.[alert];
      if (!al) throw unknownAlertWidget(alert, key);
      if (typeof v !== "number" || !Number.isFinite(v) || v < al.min || v > al.max) throw alertsMustNumberFrom(alert, al.min, al.max);
      alerts[alert] = v;
    }
    out.alerts = alerts;
  }
  if (a.rest_figure !== undefined) {
    if (!(spec.figures ?? []).includes(a.rest_figure)) throw unknownFigureWidget(a.rest_figure, key);
    out.restFigure = a.rest_figure;
  }
  // The first opening is kept; false marks it new again.
  if (a.seen === true) out.seen = stored.seen ?? now;
  if (a.seen === false) out.seen = null;
  return out;
}

/** What the user sees: their choices, else the team's (widget_defaults), else the manifest's order and first figure. */
export function toApiPreference(m: Manifest, key: string, team: { nav: string; column: boolean }, p: Stored) {
  const spec = m.provides.widgets![key]!;
  return {
    shown: p.shown ?? team.nav === "shown",
    position: p.position ?? Object.keys(m.provides.widgets!).indexOf(key),
    label: p.label ?? "",
    filters: p.filters ?? {},
    alerts: p.alerts ?? {},
    in_column: p.inColumn ?? team.column,
    seen: p.seen,
    rest_figure: p.restFigure ?? spec.figures?.[0] ?? null,
  };
}
