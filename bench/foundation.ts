// The foundation's figures: cold start of the executable to its first answered request (on an empty
// data directory and on one already migrated), idle resident memory, and GET /api/v1/users/me
// throughput at 32 connections next to a bare Bun.serve answering the same JSON.
import { closeSync, openSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { cpuMicros, cpuMsAllThreads, firstAnswer, freePort, median, NO_RATE_LIMITS, rssMb, stop } from "./lib/proc";
import type { BenchContext, BenchResult } from "./lib/types";

const STARTS = Number(process.env.BENCH_STARTS ?? 10);
const LOAD_SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const CONCURRENCY = 32;
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const LOAD_SCRIPT = join(import.meta.dir, "lib", "load.ts");
const BASELINE_SCRIPT = join(import.meta.dir, "lib", "baseline-server.ts");

interface Started {
  proc: ReturnType<typeof Bun.spawn>;
  url: string;
  ms: number;
  /** The server's CPU time (all threads) up to its first answer: less sensitive than `ms` to a busy machine. */
  cpuMs: number;
}

/** Starts the executable as an operator would: default log level, output appended to <dataDir>.log. */
export async function startConfab(ctx: BenchContext, dataDir: string): Promise<Started> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const logFile = openSync(`${dataDir}.log`, "a");
  const t0 = performance.now();
  const proc = Bun.spawn([ctx.exe, "serve", "--data-dir", dataDir, "--port", String(port)], {
    env: NO_RATE_LIMITS,
    stdout: logFile,
    stderr: logFile,
    stdin: "ignore",
  });
  closeSync(logFile); // the server has its own copy
  const ms = await firstAnswer(`${url}/api/v1/server_settings`, t0);
  return { proc, url, ms, cpuMs: cpuMsAllThreads(proc.pid) };
}

/** The `start_ms` texts of the server's "listening" lines in `logFile` ("modules 21.3, app 3.1, ..."). */
async function phaseLines(logFile: string): Promise<string[]> {
  const file = Bun.file(logFile);
  return (await file.exists()) ? [...(await file.text()).matchAll(/start_ms="([^"]*)"/g)].map((m) => m[1]!) : [];
}

/** The newest start's phases once `logFile` holds more than `seen` of them (at most 5 s after the first answer). */
async function startPhases(logFile: string, seen: number): Promise<Record<string, number>> {
  for (let i = 0; i < 500; i++) {
    const lines = await phaseLines(logFile);
    if (lines.length > seen) return Object.fromEntries([...lines.at(-1)!.matchAll(/(\w+) ([\d.]+)/g)].map((m) => [m[1]!, Number(m[2])]));
    await Bun.sleep(10);
  }
  return {};
}

/** Wall-clock times to the first answer, and the server's CPU time to it, in ms, and each phase's times (the server's own account). */
export async function coldStarts(
  ctx: BenchContext,
  migrated: boolean,
  starts = STARTS,
): Promise<{ ms: number[]; cpuMs: number[]; phases: Record<string, number[]> }> {
  const times: number[] = [];
  const cpu: number[] = [];
  const phases: Record<string, number[]> = {};
  const warmDir = join(ctx.tmp, "migrated");
  if (migrated) {
    const first = await startConfab(ctx, warmDir);
    // The first start prints the owner's credentials once the password is hashed, just after it listens.
    while (!(await Bun.file(`${warmDir}.log`).text()).includes("API key:")) await Bun.sleep(10);
    await stop(first.proc);
  }
  for (let i = 0; i < starts; i++) {
    const dir = migrated ? warmDir : join(ctx.tmp, `empty-${i}`);
    const seen = (await phaseLines(`${dir}.log`)).length;
    const s = await startConfab(ctx, dir);
    times.push(s.ms);
    cpu.push(s.cpuMs);
    for (const [k, v] of Object.entries(await startPhases(`${dir}.log`, seen))) (phases[k] ??= []).push(v);
    await stop(s.proc);
  }
  return { ms: times, cpuMs: cpu, phases };
}

interface Load {
  rps: number;
  errors: number;
  requests: number;
  sent: number;
  /** The server's CPU time per request served, in µs: unlike the rate, not capped by the load generator. */
  serverCpuUs: number;
}

/** Runs the load generator in its own process against `url`, served by process `serverPid`. */
export async function load(serverPid: number, url: string, authorization?: string): Promise<Load> {
  const cpuBefore = cpuMicros(serverPid);
  const proc = Bun.spawn([process.execPath, LOAD_SCRIPT, url, String(LOAD_SECONDS), String(CONCURRENCY), ...(authorization ? [authorization] : [])], {
    env: { ...process.env, BUN_CONFIG_MAX_HTTP_REQUESTS: "512" },
    stdout: "pipe",
    stderr: "inherit",
  });
  const out = await new Response(proc.stdout).text();
  if ((await proc.exited) !== 0) throw new Error(`load generator failed: ${out}`);
  const result = JSON.parse(out);
  return { ...result, serverCpuUs: (cpuMicros(serverPid) - cpuBefore) / result.sent };
}

/** The owner's credentials, from the output of the first start on `dataDir`. */
export async function ownerAuth(dataDir: string): Promise<string> {
  const log = await Bun.file(`${dataDir}.log`).text();
  const email = /owner email: +(\S+)/.exec(log)?.[1];
  const key = /API key: +(\S+)/.exec(log)?.[1];
  if (!email || !key) throw new Error("the first start printed no credentials");
  return "Basic " + Buffer.from(`${email}:${key}`).toString("base64");
}

export async function run(ctx: BenchContext): Promise<BenchResult> {
  ctx.log(`cold start, empty data directory (${STARTS} runs)`);
  const empty = (await coldStarts(ctx, false)).ms;
  ctx.log(`cold start, migrated data directory (${STARTS} runs)`);
  const warm = (await coldStarts(ctx, true)).ms;

  const s = await startConfab(ctx, join(ctx.tmp, "migrated"));
  try {
    const authorization = await ownerAuth(join(ctx.tmp, "migrated"));
    const me = await fetch(`${s.url}/api/v1/users/me`, { headers: { Authorization: authorization } });
    const body = await me.text();
    if (!me.ok) throw new Error(`users/me answered ${me.status}: ${body}`);
    for (let i = 0; i < 20; i++) await (await fetch(`${s.url}/api/v1/users/me`, { headers: { Authorization: authorization } })).arrayBuffer();
    await Bun.sleep(1000);
    const idleRss = rssMb(s.proc.pid);
    ctx.log(`idle RSS ${idleRss.toFixed(1)} MB`);

    // Both servers run side by side and are loaded in turns: the machine's other load drifts, and a
    // ratio of neighbouring runs cancels most of it. The figure is the median of ROUNDS such ratios.
    const bodyFile = join(ctx.tmp, "users-me.json");
    writeFileSync(bodyFile, body);
    const port = await freePort();
    const baselineProc = Bun.spawn([process.execPath, BASELINE_SCRIPT, String(port), bodyFile], { stdout: "pipe", stderr: "inherit" });
    const rounds: { confab: Load; baseline: Load }[] = [];
    let loadedRss: number;
    try {
      await firstAnswer(`http://127.0.0.1:${port}/`, performance.now());
      for (let i = 1; i <= ROUNDS; i++) {
        ctx.log(`round ${i}/${ROUNDS}: GET /users/me, then bare Bun.serve with the same JSON; ${CONCURRENCY} connections, ${LOAD_SECONDS} s each`);
        const confab = await load(s.proc.pid, `${s.url}/api/v1/users/me`, authorization);
        const baseline = await load(baselineProc.pid, `http://127.0.0.1:${port}/`);
        rounds.push({ confab, baseline });
      }
      loadedRss = rssMb(s.proc.pid);
    } finally {
      await stop(baselineProc);
    }
    const ratios = rounds.map((r) => r.confab.rps / r.baseline.rps);
    const ratio = median(ratios);
    // The rates and CPU figures reported are those of the round closest to the median ratio.
    const closest = ratios.reduce((best, r, i) => (Math.abs(r - ratio) < Math.abs(ratios[best]! - ratio) ? i : best), 0);
    const { confab, baseline } = rounds[closest]!;

    return {
      figures: {
        cold_start_empty_ms_median: round(median(empty)),
        cold_start_empty_ms_runs: empty.map((x) => round(x)).join(" "),
        cold_start_migrated_ms_median: round(median(warm)),
        cold_start_migrated_ms_runs: warm.map((x) => round(x)).join(" "),
        idle_rss_mb: round(idleRss),
        rss_after_load_mb: round(loadedRss),
        users_me_rps: Math.round(confab.rps),
        users_me_errors: confab.errors,
        baseline_rps: Math.round(baseline.rps),
        baseline_errors: baseline.errors,
        users_me_vs_baseline: round(ratio, 3),
        users_me_vs_baseline_rounds: ratios.map((x) => round(x, 3)).join(" "),
        users_me_server_cpu_us_per_request: round(confab.serverCpuUs),
        baseline_server_cpu_us_per_request: round(baseline.serverCpuUs),
        response_bytes: body.length,
        load_seconds: LOAD_SECONDS,
        concurrency: CONCURRENCY,
      },
      targets: [
        { label: "cold start, empty data dir (median)", value: round(median(empty)), unit: "ms", op: "<", limit: 300 },
        { label: "cold start, migrated data dir (median)", value: round(median(warm)), unit: "ms", op: "<", limit: 300 },
        { label: "idle RSS", value: round(idleRss), unit: "MB", op: "<", limit: 80 },
        { label: "users/me rate / bare Bun.serve rate", value: round(ratio, 3), unit: "", op: ">=", limit: 0.5 },
      ],
    };
  } finally {
    await stop(s.proc);
  }
}

const round = (x: number, digits = 1) => Math.round(x * 10 ** digits) / 10 ** digits;
