// `npm run bench` runs every benchmark module (bench/<name>.ts exporting `run`); `npm run bench --
// foundation` runs the named ones. Each writes bench/results/<name>.json (every figure, plus the
// machine) and bench/results/<name>.md (a short table of the targets). The executable is built first
// with package.json's build script; `--no-build` reuses dist/confab.
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { cpus, tmpdir, totalmem } from "node:os";
import { join } from "node:path";
import { met, type BenchModule, type BenchResult } from "./lib/types";

const ROOT = join(import.meta.dir, "..");
const RESULTS = join(import.meta.dir, "results");
const EXE = join(ROOT, "dist", "confab");

const args = process.argv.slice(2);
const build = !args.includes("--no-build");
const available = readdirSync(import.meta.dir)
  .filter((f) => f.endsWith(".ts") && f !== "run.ts")
  .map((f) => f.slice(0, -3))
  .sort();
const named = args.filter((a) => !a.startsWith("--"));
const unknown = named.filter((n) => !available.includes(n));
if (unknown.length) {
  console.error(`bench: no benchmark named ${unknown.join(", ")} (have: ${available.join(", ")})`);
  process.exit(2);
}
const chosen = named.length ? named : available;

if (build) {
  console.log("building dist/confab (npm run build)");
  const b = Bun.spawnSync(["npm", "run", "--silent", "build"], { cwd: ROOT, stdout: "inherit", stderr: "inherit" });
  if (b.exitCode !== 0) process.exit(b.exitCode ?? 1);
}

const machine = {
  date: new Date().toISOString(),
  cpu: cpus()[0]?.model ?? "unknown",
  cores: cpus().length,
  memory_gb: Math.round(totalmem() / 2 ** 30),
  bun: Bun.version,
  platform: `${process.platform}-${process.arch}`,
};

mkdirSync(RESULTS, { recursive: true });
let failed = false;
for (const name of chosen) {
  const mod = (await import(`./${name}.ts`)) as BenchModule;
  const tmp = mkdtempSync(join(tmpdir(), `confab-bench-${name}-`));
  console.log(`\n## ${name}`);
  let result: BenchResult;
  try {
    result = await mod.run({ exe: EXE, tmp, log: (l) => console.log(`  ${l}`) });
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
  const table = markdown(name, result);
  writeFileSync(join(RESULTS, `${name}.json`), JSON.stringify({ machine, ...result }, null, 2) + "\n");
  writeFileSync(join(RESULTS, `${name}.md`), table);
  console.log("\n" + table);
  if (!result.targets.every(met)) failed = true;
}
process.exit(failed ? 1 : 0);

function markdown(name: string, r: BenchResult): string {
  const rows = r.targets.map(
    (t) => `| ${t.label} | ${t.value}${t.unit ? " " + t.unit : ""} | ${t.op} ${t.limit}${t.unit ? " " + t.unit : ""} | ${met(t) ? "met" : "MISSED"} |`,
  );
  const figures = Object.entries(r.figures).map(([k, v]) => `| ${k} | ${v} |`);
  return [
    `# bench: ${name}`,
    "",
    `${machine.date} · ${machine.cpu} × ${machine.cores} · ${machine.memory_gb} GB · bun ${machine.bun} · ${machine.platform}`,
    "",
    "| Target | Measured | Goal | |",
    "|---|---|---|---|",
    ...rows,
    "",
    "| Figure | Value |",
    "|---|---|",
    ...figures,
    "",
  ].join("\n");
}
