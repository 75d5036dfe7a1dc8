// Where a server's CPU time went, from a Bun `--cpu-prof` file: each sample goes to the first frame,
// from the running function outwards, that belongs to a known part (a native function such as a SQLite
// step or JSON.stringify counts for the code that called it). Idle samples are left out, and so are those
// outside `window` (ms since the profile began, which is about when the process started).
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";

/** The parts, by the file a frame comes from (first match wins). */
const PARTS: [name: string, test: RegExp][] = [
  ["drizzle", /node_modules\/drizzle-orm\//],
  ["sqlite", /^bun:sqlite/],
  ["markdown", /node_modules\/(markdown-it|linkify-it|mdurl|punycode|uc\.micro|entities)\/|\/src\/render\//],
  ["events_fan_out", /\/src\/events\//],
  ["http", /node_modules\/elysia\/|\/src\/http\//],
  ["writer", /\/src\/db\//],
  ["confab_logic", /\/src\/(actions|store|domain|access|serializers|lib|runtime)\//],
];

interface Node {
  id: number;
  callFrame: { functionName: string; url: string };
  children?: number[];
}

/** Shares (0–1) of the busy samples per part, plus "gc" and "other"; `samples` is how many were busy. */
export function cpuShares(dir: string, window = { fromMs: 0, toMs: Infinity }): { shares: Record<string, number>; samples: number } {
  const file = readdirSync(dir).find((f) => f.endsWith(".cpuprofile"));
  if (!file) throw new Error(`no .cpuprofile in ${dir}`);
  const p = JSON.parse(readFileSync(join(dir, file), "utf8")) as { nodes: Node[]; samples: number[]; timeDeltas: number[] };
  const byId = new Map(p.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of p.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const partOf = new Map<number, string | null>();
  const classify = (id: number): string | null => {
    if (partOf.has(id)) return partOf.get(id)!;
    const { functionName, url } = byId.get(id)!.callFrame;
    let part: string | null = null;
    if (functionName === "(idle)") part = "idle";
    else if (functionName === "(garbage collector)") part = "gc";
    else part = PARTS.find(([, re]) => re.test(url))?.[0] ?? null;
    if (part === null) {
      const up = parent.get(id);
      part = up === undefined ? "other" : classify(up);
    }
    partOf.set(id, part);
    return part;
  };
  const counts: Record<string, number> = {};
  let busy = 0;
  let atUs = 0;
  for (const [i, id] of p.samples.entries()) {
    atUs += p.timeDeltas[i]!;
    if (atUs < window.fromMs * 1000 || atUs > window.toMs * 1000) continue;
    const part = classify(id)!;
    if (part === "idle") continue;
    counts[part] = (counts[part] ?? 0) + 1;
    busy++;
  }
  return { shares: Object.fromEntries(Object.entries(counts).map(([k, v]) => [k, v / Math.max(1, busy)])), samples: busy };
}
