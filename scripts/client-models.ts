// Extracts what a Dart client's JSON models require from the JSON they parse, from json_serializable's
// generated *.g.dart files (e.g. zulip-flutter's lib/api/model/*.g.dart), into a fixture the contract
// tests read (test/fixtures/clients/). Per class: each JSON key, whether the model requires it (non-
// nullable without a default), its JSON type, and the model of nested objects, list items or map values.
//
//   bun scripts/client-models.ts <out.json> "<source description>" <file.g.dart>...
import { readFileSync, writeFileSync } from "node:fs";

type Field = {
  required: boolean;
  type: "string" | "number" | "boolean" | "array" | "object" | "any";
  /** The model of a nested object, of list items (or "number"/"string"), of a map's values. */
  model?: string;
  items?: string;
  values?: string;
};

const [out, source, ...files] = process.argv.slice(2);
if (!out || !source || !files.length) {
  console.error('usage: bun scripts/client-models.ts <out.json> "<source>" <file.g.dart>...');
  process.exit(2);
}

const models: Record<string, Record<string, Field>> = {};
for (const file of files) {
  const text = readFileSync(file, "utf8");
  for (const m of text.matchAll(/^(\w+) _\$(\w+)FromJson\(\s*Map<String, dynamic> json,?\s*\) =>\s*\w+\(\n([\s\S]*?)\n\s*\)(?:\.\.[^\n]*)?;\n/gm)) {
    const body = m[3]!;
    const indent = /^(\s+)\w+:/.exec(body)?.[1] ?? "  ";
    const parts = body.split(new RegExp(`\\n(?=${indent}\\w+:)`));
    const fields: Record<string, Field> = {};
    for (const part of parts) {
      // json['key'], or a readValue helper's (json, 'key').
      const key = /json\['([^']+)'\]|\(\s*json,\s*'([^']+)'/.exec(part)?.slice(1).find(Boolean);
      if (!key) continue;
      const k = key.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
      const ref = `(?:json\\['${k}'\\]|json,\\s*'${k}',?\\s*\\))`;
      const optional =
        new RegExp(`${ref}\\s*as [\\w<>, ]*\\?`).test(part) ||
        new RegExp(`${ref} == null`).test(part) ||
        /\?\?/.test(part) ||
        /\$enumDecodeNullable/.test(part) ||
        /\?\.\w/.test(part);
      let type: Field["type"] = "any";
      const cast = new RegExp(`${ref}\\s*as (\\w+)`).exec(part)?.[1];
      if (cast === "String") type = "string";
      else if (cast === "num" || cast === "int") type = "number";
      else if (cast === "bool") type = "boolean";
      else if (cast === "List") type = "array";
      else if (cast === "Map") type = "object";
      // A readValue helper may compute the value from other keys (Message's conversation, edit_state):
      // such a key is not required as such (the tests check those by hand).
      const computed = !part.includes(`json['${key}']`);
      if (computed) type = "any"; // and its cast is of the helper's result, not of the JSON
      const f: Field = { required: !optional && !computed, type };
      const nested = /(\w+)\.fromJson\(\s*(?:e|json\['[^']+'\]) as Map<String, dynamic>/.exec(part)?.[1];
      if (type === "array") {
        if (nested) f.items = nested;
        else if (/\(e as num\)/.test(part)) f.items = "number";
        else if (/e as String/.test(part)) f.items = "string";
      } else if (type === "object" && nested) {
        if (/MapEntry/.test(part)) f.values = nested;
        else f.model = nested;
      }
      fields[key] = f;
    }
    models[m[2]!] = fields;
  }
}
writeFileSync(out, JSON.stringify({ source, models }, null, 1) + "\n");
console.log(`${out}: ${Object.keys(models).length} models`);
