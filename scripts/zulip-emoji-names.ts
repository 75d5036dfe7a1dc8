// Regenerates src/render/zulip-emoji-names.json, Zulip's Unicode emoji vocabulary (code → canonical name,
// then aliases), from Zulip's own name table. Zulip maintains it by hand in its server repository
// (tools/setup/emoji/emoji_names.py, EMOJI_NAME_MAPS) with names that differ from emoji-datasource's
// (":smile:" is 1f642 there, "thumbs_up" an alias of "+1"). Its clients carry generated copies, e.g.
// zulip-terminal's zulipterminal/unicode_emojis.py (EMOJI_DATA); either file is accepted:
//
//   bun scripts/zulip-emoji-names.ts <emoji_names.py | unicode_emojis.py> "<where the file came from>"
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";

const [file, source] = process.argv.slice(2);
if (!file || !source) {
  console.error("usage: bun scripts/zulip-emoji-names.ts <file> <source description>");
  process.exit(2);
}
const text = readFileSync(file, "utf8");
const str = `["']([^"']+)["']`;
const list = (s: string) => [...s.matchAll(/["']([^"']+)["']/g)].map((m) => m[1]!);
const byCode = new Map<string, string[]>();
// emoji_names.py: '1f600': {'canonical_name': 'grinning', 'aliases': ['happy']},
for (const m of text.matchAll(new RegExp(`^\\s*${str}:\\s*\\{\\s*["']canonical_name["']:\\s*${str},\\s*["']aliases["']:\\s*\\[([^\\]]*)\\]`, "gm")))
  byCode.set(m[1]!, [m[2]!, ...list(m[3]!)]);
// unicode_emojis.py: "+1": {'code': '1f44d', 'aliases': ['thumbs_up', 'like']},
for (const m of text.matchAll(new RegExp(`^\\s*${str}:\\s*\\{\\s*["']code["']:\\s*${str},\\s*["']aliases["']:\\s*\\[([^\\]]*)\\]`, "gm")))
  byCode.set(m[2]!, [m[1]!, ...list(m[3]!)]);
if (byCode.size < 1000) throw new Error(`${file}: only ${byCode.size} emoji found; not a Zulip emoji name table`);
const codes = [...byCode.keys()].sort();
const out = { source, code_to_names: Object.fromEntries(codes.map((c) => [c, byCode.get(c)!])) };
const target = join(import.meta.dir, "..", "src", "render", "zulip-emoji-names.json");
writeFileSync(target, JSON.stringify(out, null, 0).replace(/\],"/g, '],\n"') + "\n");
console.log(`${target}: ${codes.length} emoji, ${codes.reduce((n, c) => n + byCode.get(c)!.length, 0)} names`);
