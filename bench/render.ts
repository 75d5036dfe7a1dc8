// Markdown rendering speed, in this process (rendering is pure: no server needed): a typical short
// message with a mention, a linkifier, emphasis, an emoji, a URL and a topic link.
//
// BENCH_RENDER_BASE=<git ref> also renders with that commit's renderer, in the same process, in
// alternating rounds (A B, then B A, …; a full collection before each, CPU time of the process), for
// four kinds of text: the sends of bench/perf2.ts, the typical message, plain sentences, and a mix
// of everyday messages. On a shared machine the ratio of the two in each round is the figure to read, not the µs.
import { cpSync, mkdirSync, readdirSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import { renderMarkdown, type RenderContext } from "../src/render";
import type { BenchContext, BenchResult } from "./lib/types";

const ROOT = join(import.meta.dir, "..");
const BASE = process.env.BENCH_RENDER_BASE;
const ROUNDS = Number(process.env.BENCH_RENDER_ROUNDS ?? 41);
const PER_ROUND = 1500;

const CTX: RenderContext = {
  realmUrl: "http://chat.example.com",
  userByName: (n) => (n.toLowerCase() === "king hamlet" ? { id: 11, full_name: "King Hamlet" } : null),
  userById: (id) => (id === 11 ? { id: 11, full_name: "King Hamlet" } : null),
  groupByName: () => null,
  streamByName: (n) => (n === "Verona" ? { id: 5, name: "Verona" } : null),
  realmEmoji: () => null,
  linkifiers: [{ pattern: "#(?<id>[0-9]+)", url_template: "https://tracker.example.com/{id}" }],
};
const MESSAGE = "Hey @**King Hamlet**, can you look at #123? The **deploy** broke :cry: see https://example.com/logs and #**Verona>deploys**";

const WORDS = "lorem ipsum dolor sit amet consectetur adipiscing elit sed do eiusmod tempor incididunt ut labore et dolore magna aliqua".split(" ");
/** Shaped like bench/perf2.ts's sends: twelve words, then bold and code. */
const SENDS = Array.from(
  { length: 64 },
  (_, i) => `Benchmark message ${i}: ${Array.from({ length: 12 }, (_, j) => WORDS[(i * 7 + j) % WORDS.length]).join(" ")} with **bold** and \`code\``,
);
/** Plain sentences, the most common message of all. */
const PLAIN = Array.from(
  { length: 64 },
  (_, i) => `Sounds good, ${Array.from({ length: 1 + (i % 12) }, (_, j) => WORDS[(i * 5 + j) % WORDS.length]).join(" ")} after lunch.`,
);
const MIX = [
  "Sounds good, I'll take a look after lunch.",
  "ok",
  "Did anyone else see the build fail on the 3.2 branch? It passed locally for me.",
  "Thanks @**King Hamlet**! :tada:",
  "The fix is in https://example.com/pull/42 (see also docs.example.org/setup)",
  "Use `git rebase -i` and then **force-push** your branch.",
  "> can we ship today?\n\nYes, after #123 is merged 🎉",
  "```python\ndef total(xs):\n    return sum(x * 2 for x in xs)\n```",
  "- first item\n- second item with _underscores_\n- third",
  MESSAGE,
];

type Render = (content: string, ctx: RenderContext) => { html: string };

/** CPU µs per render of `list`, after a full collection so one round's garbage is not the next one's cost. */
function cpuPerRender(render: Render, list: string[]): number {
  Bun.gc(true);
  const start = process.cpuUsage();
  for (let i = 0; i < PER_ROUND; i++) render(list[i % list.length]!, CTX);
  const used = process.cpuUsage(start);
  return (used.user + used.system) / PER_ROUND;
}

/** The renderer of commit `ref`, in `dir`, with its own copy of markdown-it so neither shares the other's JIT profile. */
async function baseRenderer(ref: string, dir: string): Promise<Render> {
  mkdirSync(dir, { recursive: true });
  const archive = Bun.spawnSync(["sh", "-c", `git archive ${JSON.stringify(ref)} src | tar -x -C ${JSON.stringify(dir)}`], { cwd: ROOT, stderr: "inherit" });
  if (archive.exitCode !== 0) throw new Error(`bench render: cannot read ${ref}'s src`);
  mkdirSync(join(dir, "node_modules"));
  for (const name of readdirSync(join(ROOT, "node_modules"))) {
    if (name === "markdown-it") cpSync(join(ROOT, "node_modules", name), join(dir, "node_modules", name), { recursive: true });
    else symlinkSync(join(ROOT, "node_modules", name), join(dir, "node_modules", name));
  }
  return ((await import(join(dir, "src", "render", "index.ts"))) as { renderMarkdown: Render }).renderMarkdown;
}

const quantile = (xs: number[], q: number) => [...xs].sort((a, b) => a - b)[Math.round(q * (xs.length - 1))]!;
const round = (x: number, digits: number) => Math.round(x * 10 ** digits) / 10 ** digits;

async function compare(ctx: BenchContext, ref: string, figures: BenchResult["figures"]) {
  const base = await baseRenderer(ref, join(ctx.tmp, "base"));
  const sets: Record<string, string[]> = { send: SENDS, typical: [MESSAGE], plain: PLAIN, mix: MIX };
  for (const [name, list] of Object.entries(sets)) {
    for (const s of list) {
      if (base(s, CTX).html !== renderMarkdown(s, CTX).html) throw new Error(`bench render: ${ref} renders ${JSON.stringify(s)} differently`);
    }
    cpuPerRender(base, list);
    cpuPerRender(renderMarkdown, list);
    const a: number[] = [];
    const b: number[] = [];
    for (let r = 0; r < ROUNDS; r++) {
      if (r % 2) {
        a.push(cpuPerRender(base, list));
        b.push(cpuPerRender(renderMarkdown, list));
      } else {
        b.push(cpuPerRender(renderMarkdown, list));
        a.push(cpuPerRender(base, list));
      }
    }
    const ratios = a.map((x, i) => b[i]! / x);
    ctx.log(
      `${name}: ${ref} ${quantile(a, 0.5).toFixed(2)} µs, this tree ${quantile(b, 0.5).toFixed(2)} µs per render; ` +
        `ratio median ${quantile(ratios, 0.5).toFixed(3)} (quartiles ${quantile(ratios, 0.25).toFixed(3)}–${quantile(ratios, 0.75).toFixed(3)}, ${ROUNDS} rounds of ${PER_ROUND})`,
    );
    Object.assign(figures, {
      [`${name}_base_us`]: round(quantile(a, 0.5), 2),
      [`${name}_us`]: round(quantile(b, 0.5), 2),
      [`${name}_ratio_median`]: round(quantile(ratios, 0.5), 3),
      [`${name}_ratio_quartiles`]: `${quantile(ratios, 0.25).toFixed(3)} ${quantile(ratios, 0.75).toFixed(3)}`,
    });
  }
  figures.base = ref;
}

export async function run(ctx: BenchContext): Promise<BenchResult> {
  const figures: BenchResult["figures"] = {};
  // First, while neither renderer has run: the warm-up below would shape only this tree's JIT profile.
  if (BASE) await compare(ctx, BASE, figures);
  for (let i = 0; i < 2000; i++) renderMarkdown(MESSAGE, CTX);
  const rounds: number[] = [];
  for (let r = 0; r < 5; r++) {
    const t0 = performance.now();
    for (let i = 0; i < 5000; i++) renderMarkdown(MESSAGE, CTX);
    rounds.push(((performance.now() - t0) / 5000) * 1000);
  }
  rounds.sort((a, b) => a - b);
  const median = rounds[2]!;
  ctx.log(`typical message: ${median.toFixed(1)} µs per render (median of 5 rounds of 5,000)`);
  Object.assign(figures, { typical_message_us: Math.round(median * 10) / 10, rounds_us: rounds.map((x) => x.toFixed(1)).join(" ") });
  return {
    figures,
    targets: [{ label: "a typical short message renders in (median)", value: Math.round(median * 10) / 10, unit: "µs", op: "<", limit: 1000 }],
  };
}
