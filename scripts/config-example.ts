// Writes config.example.yaml from the one table of config keys (src/config/schema.ts), so the example
// documents every key with its default, its environment variable and its flag. A unit test checks that
// the committed file is what this script generates: after changing the table, run
// `npm run config:example`.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { CONFIG_KEYS, type KeySpec } from "../src/config/schema";
import { envName } from "../src/config";

/** Keys that a command-line flag also sets (flags win over everything else). */
const FLAGS: Record<string, string> = { "listen.host": "--host", "listen.port": "--port", data_dir: "--data-dir" };

const WIDTH = 100;

function wrap(text: string, indent: string): string[] {
  const lines: string[] = [];
  let line = "";
  for (const word of text.split(/\s+/)) {
    if (line && indent.length + 2 + line.length + 1 + word.length > WIDTH) {
      lines.push(`${indent}# ${line}`);
      line = word;
    } else line = line ? `${line} ${word}` : word;
  }
  if (line) lines.push(`${indent}# ${line}`);
  return lines;
}

const yamlValue = (v: unknown) => (typeof v === "string" || Array.isArray(v) ? JSON.stringify(v) : String(v));

export function renderConfigExample(): string {
  const out = [
    "# confab configuration: every key, with its default value. All keys are optional.",
    "# Precedence: defaults < this file (--config PATH, or CONFAB_CONFIG=PATH) < CONFAB_* environment",
    "# variables < command-line flags. An unknown or invalid key stops confab with exit code 2.",
    "# Generated from src/config/schema.ts by `npm run config:example`; edit that table, not this file.",
  ];
  let section: string | null = null;
  for (const [key, raw] of Object.entries(CONFIG_KEYS)) {
    const spec = raw as KeySpec;
    const dot = key.indexOf(".");
    const group = dot < 0 ? null : key.slice(0, dot);
    const name = dot < 0 ? key : key.slice(dot + 1);
    if (group !== section || group === null) {
      out.push("");
      if (group !== null) out.push(`${group}:`);
      section = group;
    }
    const indent = group === null ? "" : "  ";
    const notes = [
      spec.doc,
      spec.type === "enum" ? `One of: ${spec.values!.join(", ")}.` : "",
      spec.type === "int" && (spec.min !== undefined || spec.max !== undefined)
        ? `Integer${spec.min !== undefined ? `, at least ${spec.min}` : ""}${spec.max !== undefined ? `, at most ${spec.max}` : ""}.`
        : "",
      `Environment: ${envName(key)}${FLAGS[key] ? `; flag: ${FLAGS[key]}` : ""}.`,
    ];
    out.push(...wrap(notes.filter(Boolean).join(" "), indent));
    out.push(`${indent}${name}: ${yamlValue(spec.default)}`);
  }
  return out.join("\n") + "\n";
}

export const CONFIG_EXAMPLE_PATH = join(import.meta.dir, "..", "config.example.yaml");

if (import.meta.main) {
  writeFileSync(CONFIG_EXAMPLE_PATH, renderConfigExample());
  console.log(`wrote ${CONFIG_EXAMPLE_PATH}`);
}
