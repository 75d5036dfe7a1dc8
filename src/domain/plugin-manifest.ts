// The plugin manifest (`manifest.json` at the top of a plugin's directory): its JSON schema, checked
// with ajv, and the types the rest of the extension layer reads. A refusal names the field at fault.
import type { ErrorObject, ValidateFunction } from "ajv";
import { invalidManifest } from "./errors";

export const NAV_VALUES = ["shown", "menu", "hidden"] as const;
export const BLOCK_TYPES = ["list", "table", "stats", "text", "chart"] as const;
export const SETTING_TYPES = ["string", "text", "integer", "number", "boolean", "choice", "channel", "url"] as const;

export interface SettingField {
  key: string;
  title: string;
  type: (typeof SETTING_TYPES)[number];
  required?: boolean;
  default?: unknown;
  choices?: string[];
  min?: number;
  max?: number;
  max_length?: number;
}

export interface WidgetSpec {
  title: string;
  /** `link`: one document per link (and item); `organization`: one for the organization (and item). */
  scope?: "link" | "organization";
  link_kinds?: string[];
  facets?: Record<string, { title?: string; values: string[] }>;
  alerts?: Record<string, { title?: string; min: number; max: number }>;
  figures?: string[];
  default?: { nav?: (typeof NAV_VALUES)[number]; column?: boolean };
}

export interface Manifest {
  id: string;
  name: string;
  description: string;
  version: string;
  glyph: string;
  provides: {
    widgets?: Record<string, WidgetSpec>;
    settings?: SettingField[];
    secrets?: { name: string; title: string; required?: boolean }[];
    links?: { kind: string; title: string }[];
    tools?: { name: string; description: string; input?: Record<string, unknown> }[];
  };
  requires?: Record<string, string>;
  run?: { command: string[]; secrets?: string[] };
}

const str = (max: number, min = 1) => ({ type: "string", minLength: min, maxLength: max });
const key = (pattern: string, max = 40) => ({ type: "string", pattern, maxLength: max });
const closed = (properties: Record<string, unknown>, required: string[] = []) => ({ type: "object", additionalProperties: false, properties, required });

const WIDGET = closed(
  {
    title: str(60),
    scope: { enum: ["link", "organization"] },
    link_kinds: { type: "array", items: key("^[a-z0-9_-]+$"), uniqueItems: true },
    facets: {
      type: "object",
      propertyNames: key("^[a-z0-9_]+$"),
      additionalProperties: closed({ title: str(60), values: { type: "array", items: str(100), minItems: 1, maxItems: 100, uniqueItems: true } }, ["values"]),
    },
    alerts: {
      type: "object",
      propertyNames: key("^[a-z0-9_]+$"),
      additionalProperties: closed({ title: str(60), min: { type: "number" }, max: { type: "number" } }, ["min", "max"]),
    },
    figures: { type: "array", items: key("^[a-z0-9_]+$"), maxItems: 50, uniqueItems: true },
    default: closed({ nav: { enum: NAV_VALUES }, column: { type: "boolean" } }),
  },
  ["title"],
);

const SETTING = closed(
  {
    key: key("^[a-z][a-z0-9_]*$"),
    title: str(100),
    type: { enum: SETTING_TYPES },
    required: { type: "boolean" },
    default: {},
    choices: { type: "array", items: str(100), minItems: 1, uniqueItems: true },
    min: { type: "number" },
    max: { type: "number" },
    max_length: { type: "integer", minimum: 1, maximum: 10000 },
  },
  ["key", "title", "type"],
);

/** The manifest's JSON schema (the caller compiles it: ajv stays out of this pure module). */
export const MANIFEST_SCHEMA = closed(
  {
    id: key("^[a-z0-9][a-z0-9-]*$", 40),
    name: str(60),
    description: str(1000, 0),
    version: { type: "string", pattern: "^\\d+\\.\\d+\\.\\d+(-[0-9A-Za-z.-]+)?(\\+[0-9A-Za-z.-]+)?$", maxLength: 60 },
    glyph: str(32),
    provides: closed({
      widgets: { type: "object", propertyNames: key("^[a-z0-9_-]+$"), additionalProperties: WIDGET, maxProperties: 50 },
      settings: { type: "array", items: SETTING, maxItems: 100 },
      secrets: {
        type: "array",
        items: closed({ name: key("^[A-Z][A-Z0-9_]*$", 64), title: str(100), required: { type: "boolean" } }, ["name", "title"]),
        maxItems: 50,
      },
      links: { type: "array", items: closed({ kind: key("^[a-z0-9_-]+$"), title: str(60) }, ["kind", "title"]), maxItems: 20 },
      tools: {
        type: "array",
        items: closed({ name: key("^[a-z][a-z0-9_]*$", 64), description: str(1000), input: { type: "object" } }, ["name", "description"]),
        maxItems: 100,
      },
    }),
    requires: { type: "object", propertyNames: key("^[a-z0-9][a-z0-9-]*$"), additionalProperties: str(100) },
    run: closed(
      {
        command: { type: "array", items: str(4096), minItems: 1, maxItems: 100 },
        secrets: { type: "array", items: key("^[A-Z_][A-Z0-9_]*$", 64), uniqueItems: true },
      },
      ["command"],
    ),
  },
  ["id", "name", "description", "version", "glyph", "provides"],
);

/** `provides.widgets.builds.title`, `provides.settings[0].key` */
function fieldOf(e: ErrorObject): string {
  let path = e.instancePath
    .split("/")
    .slice(1)
    .map((p) => p.replace(/~1/g, "/").replace(/~0/g, "~"))
    .reduce((acc, p) => (/^\d+$/.test(p) ? `${acc}[${p}]` : acc ? `${acc}.${p}` : p), "");
  const p = e.params as Record<string, string>;
  if (e.keyword === "required") path = path ? `${path}.${p.missingProperty}` : p.missingProperty!;
  if (e.keyword === "additionalProperties") path = path ? `${path}.${p.additionalProperty}` : p.additionalProperty!;
  if (e.keyword === "propertyNames") path = path ? `${path}.${p.propertyName}` : p.propertyName!;
  return path || "the manifest";
}

function problemOf(e: ErrorObject): string {
  const p = e.params as Record<string, any>;
  switch (e.keyword) {
    case "required":
      return "is missing";
    case "additionalProperties":
      return "is not a manifest field";
    case "propertyNames":
      return "is not a valid key";
    case "type":
      return `must be ${p.type === "integer" ? "an integer" : p.type === "object" ? "an object" : p.type === "array" ? "a list" : `a ${p.type}`}`;
    case "enum":
      return `must be one of ${p.allowedValues.join(", ")}`;
    case "minLength":
      return p.limit === 1 ? "cannot be empty" : `must have at least ${p.limit} characters`;
    case "maxLength":
      return `is too long (limit: ${p.limit} characters)`;
    case "pattern":
      return "is not in the expected format";
    case "minItems":
      return `must have at least ${p.limit} item${p.limit === 1 ? "" : "s"}`;
    case "maxItems":
    case "maxProperties":
      return `has too many entries (limit: ${p.limit})`;
    case "uniqueItems":
      return "has duplicate entries";
    default:
      return e.message ?? "is invalid";
  }
}

/** The manifest, or `Invalid manifest: <field> <problem>` naming the first field at fault; `validator` is MANIFEST_SCHEMA compiled. */
export function checkManifest(value: unknown, validator: ValidateFunction): Manifest {
  if (!validator(value)) {
    const e = validator.errors![0]!;
    throw invalidManifest(fieldOf(e), problemOf(e));
  }
  const m = value as Manifest;
  const bad = (field: string, problem: string) => invalidManifest(field, problem);
  // What a schema cannot say: unique names across entries, and bounds that make sense.
  const dup = <T>(list: T[] | undefined, name: (x: T) => string, field: string) => {
    const seen = new Set<string>();
    (list ?? []).forEach((x, i) => {
      if (seen.has(name(x))) throw bad(`${field}[${i}]`, `repeats '${name(x)}'`);
      seen.add(name(x));
    });
  };
  dup(m.provides.settings, (s) => s.key, "provides.settings");
  dup(m.provides.secrets, (s) => s.name, "provides.secrets");
  dup(m.provides.links, (s) => s.kind, "provides.links");
  dup(m.provides.tools, (s) => s.name, "provides.tools");
  m.provides.settings?.forEach((s, i) => {
    if (s.type === "choice" && !s.choices) throw bad(`provides.settings[${i}].choices`, "is missing");
    if (s.min !== undefined && s.max !== undefined && s.min > s.max) throw bad(`provides.settings[${i}].min`, "is larger than max");
    if (s.default !== undefined) {
      const problem = settingValueProblem(s, s.default);
      if (problem) throw bad(`provides.settings[${i}].default`, problem);
    }
  });
  const kinds = new Set((m.provides.links ?? []).map((l) => l.kind));
  for (const [k, w] of Object.entries(m.provides.widgets ?? {})) {
    for (const [a, spec] of Object.entries(w.alerts ?? {})) if (spec.min > spec.max) throw bad(`provides.widgets.${k}.alerts.${a}.min`, "is larger than max");
    w.link_kinds?.forEach((kind, i) => {
      if (!kinds.has(kind)) throw bad(`provides.widgets.${k}.link_kinds[${i}]`, `names no link kind in provides.links`);
    });
    if (w.scope === "link" && !kinds.size) throw bad(`provides.widgets.${k}.scope`, "is 'link' but provides.links is empty");
  }
  return m;
}

/** Why a value does not fit a setting field, or null. */
export function settingValueProblem(f: SettingField, v: unknown): string | null {
  switch (f.type) {
    case "string":
    case "text":
    case "url":
      if (typeof v !== "string") return "must be a string";
      if (f.max_length !== undefined && [...v].length > f.max_length) return `is too long (limit: ${f.max_length} characters)`;
      if (f.type === "url" && v !== "" && !/^https?:\/\/\S+$/i.test(v)) return "is not a URL";
      return null;
    case "integer":
    case "number":
    case "channel":
      if (typeof v !== "number" || !Number.isFinite(v) || (f.type !== "number" && !Number.isInteger(v)))
        return f.type === "number" ? "must be a number" : "must be an integer";
      if (f.min !== undefined && v < f.min) return `must be at least ${f.min}`;
      if (f.max !== undefined && v > f.max) return `must be at most ${f.max}`;
      return null;
    case "boolean":
      return typeof v === "boolean" ? null : "must be a boolean";
    case "choice":
      return typeof v === "string" && f.choices!.includes(v) ? null : `must be one of ${f.choices!.join(", ")}`;
  }
}
