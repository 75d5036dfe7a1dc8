// Validates confab's HTTP responses and events against Zulip's OpenAPI file (and, for /ext/...,
// against test/schemas/ext.yaml written from our contract).
//
// The file is OpenAPI 3.0, which ajv does not read directly, so every schema we compile is first
// normalized into plain JSON Schema (see `normalize`): $refs inlined, `allOf` merged into one
// schema, `oneOf` relaxed to `anyOf`, `nullable` turned into an explicit null alternative, and
// documentation-only keys dropped. Parsing and compiling are lazy and cached: the YAML is read once
// per process, a validator is compiled once per (operation, status) or event schema.

import Ajv, { type ErrorObject, type ValidateFunction } from "ajv";
import addFormats from "ajv-formats";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";
import { RESPONSE_ADDITIONS, SCHEMA_ADDITIONS } from "./contract-overlay";
import { ZULIP_OPENAPI } from "./reference";

type Schema = Record<string, any>;
type Source = "zulip" | "ext";
interface Doc {
  source: Source;
  paths: Record<string, Record<string, any>>;
  components: Record<string, Record<string, any>>;
}

const METHODS = ["get", "put", "post", "delete", "options", "head", "patch", "trace"];

const ZULIP_FILE = process.env.CONFAB_OPENAPI || ZULIP_OPENAPI.copy;
const EXT_FILE = fileURLToPath(new URL("../schemas/ext.yaml", import.meta.url));

// ---------------------------------------------------------------------------------------------
// Loading

const docs = new Map<Source, Doc>();

function parseYaml(text: string): any {
  // Bun's native parser reads the 1.2 MB file in ~25 ms, the `yaml` package needs ~500 ms;
  // both give the same tree (they differ only in a `!!binary` request example we never use).
  const bunYaml = (globalThis as any).Bun?.YAML;
  if (bunYaml) return bunYaml.parse(text);
  return createRequire(import.meta.url)("yaml").parse(text);
}

function doc(source: Source): Doc {
  let d = docs.get(source);
  if (!d) {
    const file = source === "zulip" ? ZULIP_FILE : EXT_FILE;
    const raw = parseYaml(readFileSync(file, "utf8"));
    d = { source, paths: raw.paths ?? {}, components: raw.components ?? {} };
    docs.set(source, d);
  }
  return d;
}

/** Zulip's OpenAPI file as parsed (shared, do not modify): handy for picking its examples. */
export function zulipSpec(): { paths: Record<string, any>; components: Record<string, any> } {
  return doc("zulip");
}

function deref(d: Doc, ref: string): any {
  if (!ref.startsWith("#/")) throw new Error(`openapi: unsupported $ref ${ref} (only local refs)`);
  let node: any = { components: d.components, paths: d.paths };
  for (const part of ref.slice(2).split("/")) {
    node = node?.[part.replace(/~1/g, "/").replace(/~0/g, "~")];
  }
  if (node === undefined) throw new Error(`openapi: ${d.source} has no ${ref}`);
  return node;
}

/** Follows $ref chains of non-schema objects (responses, parameters, request bodies). */
function follow(d: Doc, node: any): any {
  while (node && typeof node.$ref === "string") node = deref(d, node.$ref);
  return node;
}

// ---------------------------------------------------------------------------------------------
// Normalizing OpenAPI 3.0 schemas into JSON Schema that ajv validates the way Zulip means them

// Keywords copied verbatim; everything else (description, example(s), deprecated, default,
// discriminator, x-*, ...) is documentation and only slows ajv down or trips it.
const ASSERTIONS = [
  "type",
  "enum",
  "const",
  "format",
  "pattern",
  "minimum",
  "maximum",
  "exclusiveMinimum",
  "exclusiveMaximum",
  "multipleOf",
  "minLength",
  "maxLength",
  "minItems",
  "maxItems",
  "uniqueItems",
  "minProperties",
  "maxProperties",
  "required",
];

const ADD_NULL = Symbol("add null when merged"); // a symbol key: invisible to ajv and Object.entries
const normalized = new Map<string, Schema>(); // "source#/ref" → normalized schema
const inProgress = new Set<string>();

function normalize(d: Doc, s: any): Schema {
  if (s === true || s === undefined) return {};
  if (s === false) return { not: {} };
  if (typeof s.$ref === "string") {
    // OpenAPI 3.0 ignores siblings of $ref, so do we. Refs are inlined and memoized.
    const key = `${d.source}${s.$ref}`;
    const hit = normalized.get(key);
    if (hit) return hit;
    if (inProgress.has(key)) throw new Error(`openapi: recursive schema ${key} is not supported`);
    inProgress.add(key);
    let out = normalize(d, deref(d, s.$ref));
    const added = d.source === "zulip" ? SCHEMA_ADDITIONS[s.$ref] : undefined;
    if (added) out = { ...out, properties: { ...out.properties, ...added } };
    inProgress.delete(key);
    normalized.set(key, out);
    return out;
  }
  let out: Schema = {};
  for (const k of ASSERTIONS) if (k in s) out[k] = s[k];
  if (s.properties) {
    out.properties = {};
    for (const [name, sub] of Object.entries(s.properties)) out.properties[name] = normalize(d, sub);
  }
  if (s.items) out.items = normalize(d, s.items);
  if ("additionalProperties" in s) {
    const ap = s.additionalProperties;
    out.additionalProperties = typeof ap === "boolean" ? ap : normalize(d, ap);
  }
  if (s.not) out.not = normalize(d, s.not);
  // oneOf → anyOf: Zulip's alternatives overlap (e.g. several error shapes that all accept a
  // plain {result, msg, code}); "exactly one" would reject bodies Zulip itself sends.
  // Empty lists (the file has an `anyOf: []`) are invalid JSON Schema and mean nothing here.
  const choices = [s.oneOf, s.anyOf].filter((c) => Array.isArray(c) && c.length);
  const anyOfs = choices.map((c: any[]) => ({ anyOf: c.map((a) => normalize(d, a)) }));
  if (anyOfs.length === 1) Object.assign(out, anyOfs[0]);
  else if (anyOfs.length) out.allOf = anyOfs;
  if (Array.isArray(s.allOf) && s.allOf.length) {
    out = mergeAll([out, ...s.allOf.map((m: any) => normalize(d, m))]);
  }
  // After merging: `{nullable: true, allOf: [$ref]}` is how the file marks a nullable object.
  // A bare `{nullable: true}` (no type) is how an allOf member re-declares a base property as
  // nullable (`User` = allOf [UserBase, {properties: {avatar_url: {nullable: true}}}]); OpenAPI 3.0
  // would read it as a no-op, Zulip means "may be null", so mergeAll adds null to the merged result.
  if (s.nullable === true) out = Object.keys(out).length ? allowNull(out) : { [ADD_NULL]: true };
  return out;
}

function allowNull(s: Schema): Schema {
  if (s.type !== undefined && !s.anyOf && !s.allOf) {
    const types = Array.isArray(s.type) ? s.type : [s.type];
    const out: Schema = { ...s, type: types.includes("null") ? types : [...types, "null"] };
    if (Array.isArray(s.enum) && !s.enum.includes(null)) out.enum = [...s.enum, null];
    return out;
  }
  return { anyOf: [s, { type: "null" }] };
}

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

// Merges allOf members into one schema, the way Zulip's own tests read the file: each member of
// e.g. `allOf: [JsonSuccessBase, {additionalProperties: false, properties: {...}}]` describes part
// of the same object, so ajv's literal reading (every member rejects the others' properties) is
// wrong. Properties and `required` are united; a property described by several members is merged
// recursively; `additionalProperties: false` in any member closes the merged object. Keywords that
// cannot be combined (two different anyOfs, disjoint types) stay behind as a residual allOf.
function mergeAll(parts: Schema[]): Schema {
  const out: Schema = {};
  const residual: Schema[] = [];
  for (const part of parts) {
    for (const [k, v] of Object.entries(part)) {
      if (!(k in out)) {
        out[k] = k === "properties" ? { ...v } : v;
        continue;
      }
      switch (k) {
        case "properties":
          for (const [name, sub] of Object.entries<Schema>(v)) {
            out.properties[name] = name in out.properties ? mergeAll([out.properties[name], sub]) : sub;
          }
          break;
        case "required":
          out.required = [...new Set([...out.required, ...v])];
          break;
        case "additionalProperties":
          if (v === false || out.additionalProperties === false) out.additionalProperties = false;
          else if (v !== true) out.additionalProperties = out.additionalProperties === true ? v : mergeAll([out.additionalProperties, v]);
          break;
        case "type": {
          const a = [out.type].flat(),
            b = [v].flat();
          const both = a.filter((t: string) => b.includes(t));
          if (both.length) out.type = both.length === 1 ? both[0] : both;
          else residual.push({ type: v });
          break;
        }
        case "enum":
          out.enum = out.enum.filter((x: unknown) => v.some((y: unknown) => same(x, y)));
          break;
        default:
          if (!same(out[k], v)) residual.push({ [k]: v });
      }
    }
  }
  if (residual.length) out.allOf = [...(out.allOf ?? []), ...residual];
  return parts.some((p) => p[ADD_NULL as any]) ? allowNull(out) : out;
}

// ---------------------------------------------------------------------------------------------
// ajv

let ajvInstance: Ajv | undefined;
function ajv(): Ajv {
  if (!ajvInstance) {
    // strict: false — OpenAPI files carry keywords ajv does not know; allErrors so one run shows
    // every problem in a body rather than the first; optimize: false because ajv's code
    // optimizer costs more than it saves here (POST /register compiles in ~90 ms, not ~250).
    ajvInstance = new Ajv({ strict: false, allErrors: true, code: { optimize: false } });
    addFormats(ajvInstance);
    ajvInstance.addFormat("binary", true); // OpenAPI's file-upload marker, not a JSON format
  }
  return ajvInstance;
}

function describe(e: ErrorObject): string {
  const where = e.instancePath || "/";
  const p: any = e.params;
  if (e.keyword === "additionalProperties") return `${where} has unexpected property "${p.additionalProperty}"`;
  if (e.keyword === "required") return `${where} is missing required property "${p.missingProperty}"`;
  if (e.keyword === "enum") return `${where} must be one of ${JSON.stringify(p.allowedValues)}`;
  return `${where} ${e.message}`;
}

// For a failed anyOf, ajv reports the errors of every branch, which reads as nonsense ("has
// unexpected property" from a branch that was never meant). Keep the branch that came closest;
// a branch that failed only on the value's type at that spot (e.g. the `null` of a nullable)
// counts as farthest.
function closestBranches(errors: ErrorObject[]): ErrorObject[] {
  let out = errors;
  for (const e of errors) {
    if (e.keyword !== "anyOf") continue;
    const prefix = `${e.schemaPath}/`;
    const inBranch = (x: ErrorObject) =>
      x.schemaPath.startsWith(prefix) && (x.instancePath === e.instancePath || x.instancePath.startsWith(`${e.instancePath}/`));
    const cost = new Map<string, number>();
    for (const x of out.filter(inBranch)) {
      const branch = x.schemaPath.slice(prefix.length).split("/")[0]!;
      const typeOnly = x.keyword === "type" && x.instancePath === e.instancePath;
      cost.set(branch, (cost.get(branch) ?? 0) + (typeOnly ? 1000 : 1));
    }
    if (cost.size < 2) continue;
    const best = [...cost].sort((a, b) => a[1] - b[1])[0]![0];
    if (cost.get(best)! >= 1000) continue; // nothing matched even the type: say so for each branch
    out = out.filter((x) => !inBranch(x) || x.schemaPath.startsWith(`${prefix}${best}/`));
  }
  return out;
}

function run(validate: ValidateFunction, value: unknown, label: string): string[] {
  if (validate(value)) return [];
  const lines = [...new Set(closestBranches(validate.errors ?? []).map(describe))];
  const shown = lines.slice(0, 25).map((l) => `${label}: ${l}`);
  if (lines.length > shown.length) shown.push(`${label}: … ${lines.length - shown.length} more`);
  return shown;
}

// ---------------------------------------------------------------------------------------------
// Path matching

interface Template {
  source: Source;
  template: string;
  segments: string[];
  item: Record<string, any>;
}

let templates: Template[] | undefined;
function allTemplates(): Template[] {
  if (!templates) {
    templates = [];
    for (const source of ["zulip", "ext"] as const) {
      for (const [template, item] of Object.entries(doc(source).paths)) {
        templates.push({ source, template, segments: template.split("/"), item });
      }
    }
  }
  return templates;
}

const isParam = (seg: string) => seg.startsWith("{") && seg.endsWith("}");

// Per segment: 2 = literal match, 1 = parameter whose kind fits the value (an integer-looking
// value and an `..._id` name, or a non-integer value and another name), 0 = other parameter.
// Comparing these scores left to right makes `/users/me` beat `/users/{user_id}` and sends
// `/users/12` to `/users/{user_id}` but `/users/iago@zulip.com` to `/users/{email}`.
function score(t: Template, segments: string[]): number[] | null {
  if (t.segments.length !== segments.length) return null;
  const out: number[] = [];
  for (let i = 0; i < segments.length; i++) {
    const want = t.segments[i]!,
      got = segments[i]!;
    if (!isParam(want)) {
      if (want !== got) return null;
      out.push(2);
    } else {
      if (got === "") return null;
      out.push(/^\d+$/.test(got) === /_id\}$/.test(want) ? 1 : 0);
    }
  }
  return out;
}

function bestTemplate(path: string): Template | null {
  const segments = path.split("?")[0]!.split("/");
  let best: Template | null = null;
  let bestScore: number[] = [];
  for (const t of allTemplates()) {
    const s = score(t, segments);
    if (!s) continue;
    const cmp = compareScores(s, bestScore);
    if (!best || cmp > 0 || (cmp === 0 && t.template < best.template)) {
      best = t;
      bestScore = s;
    }
  }
  return best;
}

function compareScores(a: number[], b: number[]): number {
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    if ((a[i] ?? -1) !== (b[i] ?? -1)) return (a[i] ?? -1) - (b[i] ?? -1);
  }
  return 0;
}

/**
 * The operation a request reaches. The path template is chosen first, the method second (as a
 * router does), so `PATCH /users/me` is null rather than `PATCH /users/{email}`.
 */
export function findOperation(method: string, path: string): { template: string; operationId?: string; source: Source } | null {
  const t = bestTemplate(path);
  const op = t?.item[method.toLowerCase()];
  if (!t || !op) return null;
  return { template: t.template, operationId: op.operationId, source: t.source };
}

// ---------------------------------------------------------------------------------------------
// Responses

const responseValidators = new Map<string, ValidateFunction | null>();

// The exact status's response, else the class (`4XX`) or `default`; null when none has a schema.
function responseSchema(d: Doc, op: any, status: number): Schema | null {
  const responses = op.responses ?? {};
  const cls = `${String(status)[0]}XX`;
  const key = [String(status), cls, cls.toLowerCase(), "default"].find((k) => k in responses);
  if (!key) return null;
  const content = follow(d, responses[key])?.content ?? {};
  const json = content["application/json"] ?? Object.values<any>(content)[0];
  return json?.schema ? normalize(d, json.schema) : null;
}

export function validateResponse(method: string, path: string, status: number, body: unknown): string[] {
  const t = bestTemplate(path);
  const m = method.toLowerCase();
  const op = t?.item[m];
  if (!t || !op) return [];
  const cacheKey = `${t.source} ${m} ${t.template} ${status}`;
  let validate = responseValidators.get(cacheKey);
  if (validate === undefined) {
    let schema = responseSchema(doc(t.source), op, status);
    const added = RESPONSE_ADDITIONS[`${m} ${t.template} ${status}`];
    if (schema && added) schema = { ...schema, properties: { ...schema.properties, ...added } };
    // GET /events: the `events` items are one big oneOf; validating them through it gives
    // unreadable errors and rejects confab's own event types, so each event goes through
    // validateEvent instead and the envelope is checked alone.
    if (schema && isGetEvents(t, m, status)) {
      schema = { ...schema, properties: { ...schema.properties, events: { type: "array" } } };
    }
    validate = schema ? ajv().compile(schema) : null;
    responseValidators.set(cacheKey, validate);
  }
  if (!validate) return [];
  const label = `${method.toUpperCase()} ${t.template} ${status} (${op.operationId ?? "no operationId"})`;
  const errors = run(validate, body, label);
  if (isGetEvents(t, m, status) && Array.isArray((body as any)?.events)) {
    (body as any).events.forEach((event: unknown, i: number) => errors.push(...validateEvent(event).map((e) => `${label}: /events/${i} ${e}`)));
  }
  return errors;
}

const isGetEvents = (t: Template, method: string, status: number) => t.source === "zulip" && t.template === "/events" && method === "get" && status === 200;

// ---------------------------------------------------------------------------------------------
// Events

interface EventCandidate {
  name: string;
  schema: Schema;
  types: unknown[];
  ops: unknown[] | null; // null: the schema does not pin `op`
  validate?: ValidateFunction;
}

let eventCandidates: EventCandidate[] | undefined;
function candidates(): EventCandidate[] {
  if (!eventCandidates) {
    const d = doc("zulip");
    const op = d.paths["/events"]?.get;
    const envelope = follow(d, op?.responses?.["200"])?.content?.["application/json"]?.schema;
    // Walk the raw envelope (not its normalization, which would have collapsed oneOf into an
    // anonymous anyOf) down to the events item's oneOf, keeping each member's $ref for labels.
    let items: any = findEventsItems(d, envelope);
    items = follow(d, items);
    eventCandidates = (items?.oneOf ?? items?.anyOf ?? []).map((member: any, i: number) => {
      const schema = normalize(d, member);
      return {
        name: typeof member.$ref === "string" ? member.$ref.split("/").pop() : `oneOf[${i}]`,
        schema,
        types: schema.properties?.type?.enum ?? [],
        ops: schema.properties?.op?.enum ?? null,
      };
    });
  }
  return eventCandidates!;
}

function findEventsItems(d: Doc, s: any): any {
  s = follow(d, s);
  if (!s) return undefined;
  if (s.properties?.events) return follow(d, s.properties.events).items;
  for (const member of s.allOf ?? []) {
    const found = findEventsItems(d, member);
    if (found) return found;
  }
  return undefined;
}

/**
 * Checks one event (an element of GET /events `events`) against the event schemas of its `type`
 * (and `op`, where schemas pin it). Passes if any candidate accepts it; otherwise returns the
 * errors of the closest candidate. Types and ops the file does not describe (confab's own
 * ext_* events, newer Zulip ops) pass.
 */
export function validateEvent(event: unknown): string[] {
  const e = event as any;
  if (!e || typeof e !== "object" || Array.isArray(e)) return ["event is not an object"];
  let list = candidates().filter((c) => c.types.includes(e.type));
  // An op the file does not list is undescribed, not wrong: the file lags Zulip (it has
  // realm_emoji "update" only, while Zulip and our contract also send "add" and "edit").
  if (list.some((c) => c.ops)) list = list.filter((c) => !c.ops || c.ops.includes(e.op));
  if (!list.length) return [];
  let best: string[] | null = null;
  for (const c of list) {
    c.validate ??= ajv().compile(c.schema);
    const errors = run(c.validate, event, `event ${e.type}${e.op ? "/" + e.op : ""} (${c.name})`);
    if (!errors.length) return [];
    if (!best || errors.length < best.length) best = errors;
  }
  return best!;
}

// ---------------------------------------------------------------------------------------------
// Schemas by reference, and the operation list

const refValidators = new Map<string, ValidateFunction>();

/**
 * Validates against one named schema, e.g. "#/components/schemas/User" (Zulip's file) or
 * "ext.yaml#/components/schemas/Plugin" (ours). An unknown ref throws: it is a bug in the test.
 */
export function validateSchemaByRef(ref: string, value: unknown): string[] {
  let validate = refValidators.get(ref);
  if (!validate) {
    const [file, pointer] = ref.startsWith("ext.yaml#") ? ["ext", ref.slice(8)] : ["zulip", ref];
    validate = ajv().compile(normalize(doc(file as Source), { $ref: pointer }));
    refValidators.set(ref, validate);
  }
  return run(validate, value, ref);
}

export interface OperationInfo {
  method: string; // upper case
  template: string;
  operationId?: string;
  source: Source;
  // `in` is path/query/header/cookie for declared parameters, "body" for properties of the
  // request body schema (Zulip's POST/PATCH/DELETE parameters are form fields described there).
  parameters: { name: string; in: string; required: boolean }[];
}

/** Every operation of Zulip's file, then those of test/schemas/ext.yaml (source "ext"). */
export function operations(): OperationInfo[] {
  const out: OperationInfo[] = [];
  for (const source of ["zulip", "ext"] as const) {
    const d = doc(source);
    for (const [template, item] of Object.entries(d.paths)) {
      for (const method of METHODS) {
        const op = item[method];
        if (!op) continue;
        const parameters: OperationInfo["parameters"] = [];
        for (const raw of [...(item.parameters ?? []), ...(op.parameters ?? [])]) {
          const p = follow(d, raw);
          const prev = parameters.findIndex((q) => q.name === p.name && q.in === p.in);
          if (prev >= 0) parameters.splice(prev, 1); // an operation's own entry overrides the path's
          parameters.push({ name: p.name, in: p.in, required: p.required === true });
        }
        const content = follow(d, op.requestBody)?.content ?? {};
        const bodySchema = Object.values<any>(content)[0]?.schema;
        if (bodySchema) {
          const s = normalize(d, bodySchema);
          const required = new Set<string>(s.required ?? []);
          for (const name of Object.keys(s.properties ?? {})) {
            parameters.push({ name, in: "body", required: required.has(name) });
          }
        }
        out.push({ method: method.toUpperCase(), template, operationId: op.operationId, source, parameters });
      }
    }
  }
  return out;
}
