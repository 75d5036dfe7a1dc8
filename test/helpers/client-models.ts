// Checks JSON against what an official client's models require, from a fixture made by
// scripts/client-models.ts out of the client's own generated parsers (test/fixtures/clients/).
import { readFileSync } from "node:fs";

interface Field {
  required: boolean;
  type: "string" | "number" | "boolean" | "array" | "object" | "any";
  model?: string;
  items?: string;
  values?: string;
}
export interface ClientModels {
  source: string;
  models: Record<string, Record<string, Field>>;
}

export const loadClientModels = (name: string): ClientModels => JSON.parse(readFileSync(new URL(`../fixtures/clients/${name}.json`, import.meta.url), "utf8"));

const typeOf = (v: unknown) => (v === null ? "null" : Array.isArray(v) ? "array" : typeof v);

/**
 * Every problem the client's parser would have with `value` read as `model`: a required key missing or
 * null, a value of the wrong JSON type, recursively through nested models, lists and maps.
 */
export function modelProblems(m: ClientModels, model: string, value: unknown, path = model): string[] {
  const fields = m.models[model];
  if (!fields) return []; // a hand-written parser (e.g. Message.fromJson): checked by the test itself
  if (typeOf(value) !== "object") return [`${path}: expected an object, got ${typeOf(value)}`];
  const obj = value as Record<string, unknown>;
  const out: string[] = [];
  const check = (v: unknown, type: string | undefined, at: string) => {
    if (!type) return;
    if (type === "number" || type === "string") {
      if (typeof v !== type) out.push(`${at}: expected ${type}, got ${typeOf(v)}`);
    } else out.push(...modelProblems(m, type, v, at));
  };
  for (const [key, f] of Object.entries(fields)) {
    const v = obj[key];
    const at = `${path}.${key}`;
    if (v === undefined || v === null) {
      if (f.required) out.push(`${at}: required, ${v === null ? "null" : "missing"}`);
      continue;
    }
    if (f.type !== "any" && typeOf(v) !== f.type) {
      out.push(`${at}: expected ${f.type}, got ${typeOf(v)}`);
      continue;
    }
    if (f.model) check(v, f.model, at);
    if (f.items) (v as unknown[]).forEach((x, i) => check(x, f.items, `${at}[${i}]`));
    if (f.values) for (const [k, x] of Object.entries(v as object)) check(x, f.values, `${at}[${k}]`);
  }
  return out;
}
