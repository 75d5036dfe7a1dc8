// Performance II (issue 20): every figure side by side with a compiled bare Bun.serve in the same run.
//  - cold start to the first answer, empty and migrated data directory (median of BENCH_STARTS = 6);
//  - idle resident memory after start;
//  - beside both, the stack floor (lib/stack-floor.ts: SQLite + drizzle with our schema + Elysia, no confab);
//  - GET /users/me at 32 connections with wrk (installed from Debian's packages when missing), as a
//    ratio to the bare server in neighbouring runs, and the Bun load generator's figure beside it;
//  - on a BENCH_MESSAGES (default 1,000,000) message database (bench/messages.ts's generator):
//    durable channel sends/s to 100 subscribers of whom 99 hold queues, 16 connections;
//    channel+topic newest-100 fetch p50/p99, idle; memory per undelivered event in those queues;
//    the same fetch, paced, during a burst of BENCH_BURST (default 50,000) sends and through the catch-up
//    after it (the target: background work must not starve the API);
//  - where a send's CPU time goes: the send phase again under --cpu-prof, per part of the code (lib/cpu-profile.ts);
//  - the linux-arm64 executable's smoke test under qemu-user (scripts/smoke-arm64.ts).
// `npm run bench -- perf2`; while developing, e.g. BENCH_MESSAGES=50000 BENCH_BURST=5000 BENCH_SECONDS=3,
// and BENCH_PARTS=start (start-up, memory, users/me) or BENCH_PARTS=big (the big database's rows).
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { arm64Runner, smoke } from "../scripts/smoke-arm64";
import { coldStarts, load as bunLoad, ownerAuth, startConfab } from "./foundation";
import { generate } from "./messages";
import { cpuShares } from "./lib/cpu-profile";
import {
  cpuMicros,
  cpuMsAllThreads,
  firstAnswer,
  freePort,
  median,
  memoryReport,
  NO_RATE_LIMITS,
  rssMb,
  rssParts,
  serveExe,
  stop,
  untilQuiet,
  waitForIntegrityCheck,
} from "./lib/proc";
import { deleteQueues, registerQueues } from "./lib/queues";
import { basic } from "./lib/seed";
import type { BenchContext, BenchResult } from "./lib/types";

const STARTS = Number(process.env.BENCH_STARTS ?? 6);
const MESSAGES = Number(process.env.BENCH_MESSAGES ?? 1_000_000);
const BURST = Number(process.env.BENCH_BURST ?? 50_000);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
/** Which parts run (while developing): any of start, big, profile (needs big), arm64; all by default. */
const PARTS = new Set((process.env.BENCH_PARTS ?? "start,big,profile,arm64").split(","));
const CONNECTIONS = 32;
const SENDERS = 16;
const QUEUES = 99;
/** The paced fetch loop: one fetch every PACE_MS, so the loop itself barely loads the server. */
const PACE_MS = 20;
const ROOT = join(import.meta.dir, "..");
const LOAD = join(import.meta.dir, "lib", "messages-load.ts");
const BASELINE_SCRIPT = join(import.meta.dir, "lib", "baseline-server.ts");
const FLOOR_SCRIPT = join(import.meta.dir, "lib", "stack-floor.ts");

/** A Debian package's tool, installed when missing (as root); null when it cannot be had. */
function tool(name: string, packages: string[]): string | null {
  const found = Bun.which(name);
  if (found || process.getuid?.() !== 0) return found;
  Bun.spawnSync(["apt-get", "install", "-y", "--no-install-recommends", ...packages], { stdout: "ignore", stderr: "inherit" });
  return Bun.which(name);
}

/** wrk's requests per second against `url` (32 connections, 2 threads). */
function wrk(bin: string, url: string, authorization?: string): { rps: number; p99_ms: number; errors: number } {
  const args = [bin, "-t2", `-c${CONNECTIONS}`, `-d${SECONDS}s`, "--latency", ...(authorization ? ["-H", `Authorization: ${authorization}`] : []), url];
  const out = Bun.spawnSync(args, { stdout: "pipe", stderr: "inherit" }).stdout.toString();
  const rps = Number(/Requests\/sec:\s+([\d.]+)/.exec(out)?.[1]);
  if (!rps) throw new Error(`wrk printed no rate:\n${out}`);
  const p99 = /99%\s+([\d.]+)(us|ms|s)/.exec(out);
  const unit = { us: 0.001, ms: 1, s: 1000 }[p99?.[2] as "ms"] ?? NaN;
  const errors = Number(/Non-2xx or 3xx responses:\s+(\d+)/.exec(out)?.[1] ?? 0);
  // A rate of refusals (a 429 or a 401) says nothing about serving the request.
  if (errors) throw new Error(`wrk saw ${errors} answers that were not 2xx from ${url}`);
  return { rps, p99_ms: Number(p99?.[1]) * unit, errors };
}

/** The bare server compiled the way confab is, so both start from the same kind of file. */
function compileBaseline(tmp: string, script = BASELINE_SCRIPT, flags: string[] = []): string {
  const exe = join(tmp, script === BASELINE_SCRIPT ? "bare-bun" : "stack-floor");
  const b = Bun.spawnSync([process.execPath, "build", "--compile", "--minify", ...flags, script, "--outfile", exe], {
    cwd: ROOT,
    stdout: "ignore",
    stderr: "inherit",
  });
  if (b.exitCode !== 0) throw new Error(`could not compile ${script}`);
  return exe;
}

/** The stack floor (lib/stack-floor.ts): its cold starts (median) and its resident memory after 20 answers. */
async function stackFloor(tmp: string): Promise<{ ms: number; rssMb: number }> {
  const exe = compileBaseline(tmp, FLOOR_SCRIPT, ["--bytecode"]);
  const times: number[] = [];
  let rss = NaN;
  for (let i = 0; i < STARTS; i++) {
    const port = await freePort();
    const t0 = performance.now();
    const proc = Bun.spawn([exe, String(port), join(tmp, "floor.db")], { stdout: "ignore", stderr: "inherit" });
    times.push(await firstAnswer(`http://127.0.0.1:${port}/`, t0));
    if (i === STARTS - 1) {
      for (let j = 0; j < 20; j++) await (await fetch(`http://127.0.0.1:${port}/`)).arrayBuffer();
      await Bun.sleep(1000);
      rss = rssMb(proc.pid);
    }
    await stop(proc);
  }
  return { ms: median(times), rssMb: rss };
}

async function startBaseline(exe: string, bodyFile: string) {
  const port = await freePort();
  const t0 = performance.now();
  const proc = Bun.spawn([exe, String(port), bodyFile], { stdout: "ignore", stderr: "inherit" });
  const ms = await firstAnswer(`http://127.0.0.1:${port}/`, t0);
  return { proc, url: `http://127.0.0.1:${port}/`, ms, cpuMs: cpuMsAllThreads(proc.pid) };
}

async function loadSpec(ctx: BenchContext, spec: object) {
  const file = join(ctx.tmp, `load-${performance.now()}.json`);
  writeFileSync(file, JSON.stringify(spec));
  const proc = Bun.spawn([process.execPath, LOAD, file], { env: { ...process.env, BUN_CONFIG_MAX_HTTP_REQUESTS: "512" }, stdout: "pipe", stderr: "inherit" });
  return {
    proc,
    async result(): Promise<{ requests: number; errors: number; rps: number; seconds: number; median_ms: number; p99_ms: number; first_error?: string }> {
      const out = await new Response(proc.stdout).text();
      if ((await proc.exited) !== 0) throw new Error(`load generator failed: ${out}`);
      const r = JSON.parse(out);
      // A phase in which nothing was answered would otherwise report latencies of 0 ms.
      if (!r.requests) throw new Error(`no request was answered in the measured time: ${out}`);
      return r;
    },
  };
}

/** The server's own `_sum` and `_count` figures from /metrics (loopback may read it). */
async function metricTotals(url: string): Promise<Map<string, number>> {
  const text = await (await fetch(`${url}/metrics`)).text();
  return new Map([...text.matchAll(/^(confab_\w+_(?:sum|count|bucket\{le="[^"]+"\})) ([\d.e+-]+)$/gm)].map((m) => [m[1]!, Number(m[2])]));
}

/** How many COMMITs of a phase took longer than 25 ms, and longer than 100 ms (a checkpoint's stall). */
function slowCommits(before: Map<string, number>, after: Map<string, number>) {
  const over = (le: string) => {
    const d = (k: string) => (after.get(k) ?? 0) - (before.get(k) ?? 0);
    return d('confab_commit_seconds_bucket{le="+Inf"}') - d(`confab_commit_seconds_bucket{le="${le}"}`);
  };
  return { over25ms: over("0.025"), over100ms: over("0.1") };
}

/** Per-batch means over a phase: actions per COMMIT, the COMMIT's time and the WAL fsync's, in ms. */
function commitMeans(before: Map<string, number>, after: Map<string, number>) {
  const d = (k: string) => (after.get(k) ?? 0) - (before.get(k) ?? 0);
  const mean = (name: string, scale = 1) => (d(`${name}_sum`) / Math.max(1, d(`${name}_count`))) * scale;
  return {
    actions_per_commit: mean("confab_commit_batch_actions"),
    commit_ms: mean("confab_commit_seconds", 1000),
    wal_fsync_ms: mean("confab_wal_fsync_seconds", 1000),
  };
}

const pct = (sorted: number[], p: number) => (sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))]! : NaN);

/**
 * One fetch every PACE_MS from `paths` until `until()` says stop; the latencies, sorted. With `after`,
 * the fetches started once `after()` held go to that list instead (also sorted).
 */
async function pacedFetches(
  url: string,
  authorization: string,
  paths: string[],
  until: () => boolean,
  after?: { when: () => boolean; lat: number[] },
): Promise<number[]> {
  const lat: number[] = [];
  for (let i = 0; !until(); i++) {
    const into = after?.when() ? after.lat : lat;
    const t0 = performance.now();
    const res = await fetch(url + paths[i % paths.length]!, { headers: { Authorization: authorization } });
    await res.arrayBuffer();
    if (!res.ok) throw new Error(`fetch answered ${res.status}`);
    const ms = performance.now() - t0;
    into.push(ms);
    if (ms < PACE_MS) await Bun.sleep(PACE_MS - ms);
  }
  after?.lat.sort((a, b) => a - b);
  return lat.sort((a, b) => a - b);
}

/**
 * Where a send's CPU time goes: the send phase again, on the same database and queues, against the
 * server run from source under Bun's --cpu-prof (frames keep their file paths), summed per part of the
 * code by lib/cpu-profile.ts.
 */
async function profileSends(ctx: BenchContext, dataDir: string, queueHolders: string[], send: object) {
  const dir = join(ctx.tmp, "cpu-profile");
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const t0 = performance.now();
  const proc = Bun.spawn(
    [process.execPath, "--cpu-prof", `--cpu-prof-dir=${dir}`, join(ROOT, "cli/index.ts"), "serve", "--data-dir", dataDir, "--port", String(port)],
    {
      env: { ...NO_RATE_LIMITS, CONFAB_LOG_LEVEL: "warn" },
      stdout: "ignore",
      stderr: "inherit",
    },
  );
  try {
    await firstAnswer(`${url}/api/v1/server_settings`, t0, 120_000);
    await waitForIntegrityCheck(url);
    await registerQueues(url, queueHolders);
    await untilQuiet(() => cpuMicros(proc.pid)); // the burst's backlog caught up
    const cpu0 = cpuMicros(proc.pid);
    const from = performance.now() - t0;
    const sent = await (await loadSpec(ctx, { ...send, url })).result();
    const window = { fromMs: from, toMs: performance.now() - t0 };
    const cpuPerSend = (cpuMicros(proc.pid) - cpu0) / Math.max(1, sent.requests);
    await stop(proc); // the profile is written as the process exits
    return { ...cpuShares(dir, window), cpuPerSend };
  } finally {
    proc.kill("SIGKILL");
  }
}

export async function run(ctx: BenchContext): Promise<BenchResult> {
  const f: Record<string, number | string> = {};
  const round = (x: number, digits = 1) => Math.round(x * 10 ** digits) / 10 ** digits;
  const bare = compileBaseline(ctx.tmp);

  // --- Start-up and footprint ---
  if (PARTS.has("start")) {
    ctx.log(`cold start, empty data directory, confab then bare Bun (${STARTS} runs each)`);
    const { ms: empty, cpuMs: emptyCpu, phases: emptyPhases } = await coldStarts(ctx, false, STARTS);
    const { ms: warm, cpuMs: warmCpu, phases: warmPhases } = await coldStarts(ctx, true, STARTS);
    // Where a start's time goes inside the server (its "listening" line), median per phase.
    const phaseText = (ph: Record<string, number[]>) =>
      Object.entries(ph)
        .map(([k, v]) => `${k} ${round(median(v))}`)
        .join(", ");
    const s = await startConfab(ctx, join(ctx.tmp, "migrated"));
    const authorization = await ownerAuth(join(ctx.tmp, "migrated"));
    const me = await fetch(`${s.url}/api/v1/users/me`, { headers: { Authorization: authorization } });
    const bodyFile = join(ctx.tmp, "users-me.json");
    writeFileSync(bodyFile, await me.text());
    const bareStarts: number[] = [];
    const bareCpu: number[] = [];
    for (let i = 0; i < STARTS; i++) {
      const b = await startBaseline(bare, bodyFile);
      bareStarts.push(b.ms);
      bareCpu.push(b.cpuMs);
      await stop(b.proc);
    }
    const floor = await stackFloor(ctx.tmp);
    Object.assign(f, {
      cold_start_empty_ms_median: round(median(empty)),
      cold_start_empty_ms_runs: empty.map((x) => round(x)).join(" "),
      cold_start_migrated_ms_median: round(median(warm)),
      cold_start_migrated_ms_runs: warm.map((x) => round(x)).join(" "),
      bare_cold_start_ms_median: round(median(bareStarts)),
      bare_cold_start_ms_runs: bareStarts.map((x) => round(x)).join(" "),
      cold_start_empty_cpu_ms_median: round(median(emptyCpu)),
      cold_start_migrated_cpu_ms_median: round(median(warmCpu)),
      bare_cold_start_cpu_ms_median: round(median(bareCpu)),
      cold_start_empty_phases_ms: phaseText(emptyPhases),
      cold_start_migrated_phases_ms: phaseText(warmPhases),
      stack_floor_cold_start_ms_median: round(floor.ms),
      stack_floor_idle_rss_mb: round(floor.rssMb),
    });
    ctx.log(
      `  empty ${f.cold_start_empty_ms_median} ms, migrated ${f.cold_start_migrated_ms_median} ms, bare ${f.bare_cold_start_ms_median} ms, stack floor ${f.stack_floor_cold_start_ms_median} ms (${f.stack_floor_idle_rss_mb} MB)`,
    );
    ctx.log(`  inside the server (its "listening" line, median): empty ${f.cold_start_empty_phases_ms}; migrated ${f.cold_start_migrated_phases_ms}`);
    ctx.log(
      `  CPU to first answer: empty ${f.cold_start_empty_cpu_ms_median} ms, migrated ${f.cold_start_migrated_cpu_ms_median} ms, bare ${f.bare_cold_start_cpu_ms_median} ms`,
    );

    const b = await startBaseline(bare, bodyFile);
    try {
      for (let i = 0; i < 20; i++) {
        await (await fetch(`${s.url}/api/v1/users/me`, { headers: { Authorization: authorization } })).arrayBuffer();
        await (await fetch(b.url)).arrayBuffer();
      }
      await Bun.sleep(1000);
      f.idle_rss_mb = round(rssMb(s.proc.pid));
      f.bare_idle_rss_mb = round(rssMb(b.proc.pid));
      // Where it lies (smaps): what holds the figure back.
      const parts = (pid: number) =>
        Object.entries(rssParts(pid))
          .map(([k, v]) => `${k} ${round(v)}`)
          .join(", ");
      f.idle_rss_parts_mb = parts(s.proc.pid);
      f.bare_idle_rss_parts_mb = parts(b.proc.pid);
      ctx.log(`idle RSS ${f.idle_rss_mb} MB (${f.idle_rss_parts_mb}), bare ${f.bare_idle_rss_mb} MB (${f.bare_idle_rss_parts_mb})`);

      // --- GET /users/me: wrk, rounds in turns so the machine's drift cancels in each ratio ---
      const wrkBin = tool("wrk", ["wrk"]);
      if (wrkBin) {
        const rounds: { confab: ReturnType<typeof wrk>; bare: ReturnType<typeof wrk> }[] = [];
        for (let i = 1; i <= ROUNDS; i++) {
          ctx.log(`wrk round ${i}/${ROUNDS}: users/me, then bare; ${CONNECTIONS} connections, ${SECONDS} s each`);
          rounds.push({ confab: wrk(wrkBin, `${s.url}/api/v1/users/me`, authorization), bare: wrk(wrkBin, b.url) });
        }
        const ratios = rounds.map((r) => r.confab.rps / r.bare.rps);
        const mid = rounds[ratios.indexOf([...ratios].sort((x, y) => x - y)[ratios.length >> 1]!)]!;
        Object.assign(f, {
          users_me_wrk_rps: Math.round(mid.confab.rps),
          users_me_wrk_p99_ms: round(mid.confab.p99_ms, 2),
          users_me_wrk_errors: rounds.reduce((a, r) => a + r.confab.errors, 0),
          bare_wrk_rps: Math.round(mid.bare.rps),
          bare_wrk_p99_ms: round(mid.bare.p99_ms, 2),
          users_me_wrk_ratio: round(median(ratios), 3),
          users_me_wrk_ratio_rounds: ratios.map((x) => round(x, 3)).join(" "),
        });
        ctx.log(`  ratio ${f.users_me_wrk_ratio} (${f.users_me_wrk_rps} vs ${f.bare_wrk_rps} req/s)`);
      } else f.users_me_wrk_ratio = "wrk missing (apt-get install wrk)";
      // The Bun load generator's figure, beside wrk's (it is itself the bottleneck at these rates).
      const viaBun = await bunLoad(s.proc.pid, `${s.url}/api/v1/users/me`, authorization);
      const bareViaBun = await bunLoad(b.proc.pid, b.url);
      Object.assign(f, {
        users_me_bun_client_rps: Math.round(viaBun.rps),
        bare_bun_client_rps: Math.round(bareViaBun.rps),
        users_me_bun_client_ratio: round(viaBun.rps / bareViaBun.rps, 3),
        users_me_server_cpu_us_per_request: round(viaBun.serverCpuUs),
        bare_server_cpu_us_per_request: round(bareViaBun.serverCpuUs),
      });
    } finally {
      await stop(b.proc);
      await stop(s.proc);
    }
  }

  // --- The big database: sends, fetches, queue memory, catch-up ---
  if (PARTS.has("big")) {
    const dataDir = join(ctx.tmp, "big");
    ctx.log(`generating ${MESSAGES.toLocaleString()} messages (bench/messages.ts's database)`);
    const g = await generate(dataDir, ctx.log, { users: 200, messages: MESSAGES });
    const logFile = `${dataDir}.log`;
    let profileWith: { holders: string[]; sendSpec: object } | null = null;
    const server = await serveExe(ctx.exe, dataDir, logFile, 120_000);
    try {
      // Measure the steady state: the start-up quick_check reads the whole file (a core for seconds on
      // this database), once per start.
      await waitForIntegrityCheck(server.url);
      const target = g.channels[0]!;
      const byId = new Map(g.users.map((u) => [u.id, u]));
      const subscribers = target.subscribers.map((id) => byId.get(id)!);
      const holders = subscribers.slice(1, 1 + QUEUES); // the first subscriber keeps no queue
      const holderAuths = holders.map(basic);
      const queues = await registerQueues(server.url, holderAuths);
      const contents = Array.from({ length: 64 }, (_, i) => `Benchmark message ${i}: ${g.words.slice(i * 7, i * 7 + 12).join(" ")} with **bold** and \`code\``);
      const sendRequests = contents.map((content, i) => ({
        path: "/api/v1/messages",
        form: { type: "stream", to: String(target.id), topic: `send ${i % 8}`, content },
      }));
      const senders = subscribers.slice(0, SENDERS).map(basic);
      const sendSpec = { mode: "send", seconds: SECONDS, concurrency: SENDERS, auth: senders, requests: sendRequests };
      profileWith = { holders: holderAuths, sendSpec };

      ctx.log(`sends: ${SENDERS} connections to a ${target.subscribers.length}-subscriber channel, ${queues.length} open queues, ${SECONDS} s`);
      const beforeSends = await metricTotals(server.url);
      const cpuBeforeSends = cpuMicros(server.proc.pid);
      const send = await (await loadSpec(ctx, { ...sendSpec, url: server.url })).result();
      // What bounds durable sends: each sender waits for its batch's fsync, so sends/s ≈ batch ÷ cycle.
      const commits = commitMeans(beforeSends, await metricTotals(server.url));
      const cpuPerSend = (cpuMicros(server.proc.pid) - cpuBeforeSends) / Math.max(1, send.requests);
      Object.assign(f, {
        messages: MESSAGES,
        send_per_second: Math.round(send.rps),
        send_median_ms: round(send.median_ms, 2),
        send_p99_ms: round(send.p99_ms, 2),
        send_errors: send.errors,
        send_actions_per_commit: round(commits.actions_per_commit, 1),
        send_commit_ms: round(commits.commit_ms, 2),
        send_wal_fsync_ms: round(commits.wal_fsync_ms, 2),
        send_server_cpu_us: Math.round(cpuPerSend),
      });
      ctx.log(`  ${f.send_per_second}/s, p99 ${f.send_p99_ms} ms, ${send.errors} errors${send.first_error ? ` (${send.first_error})` : ""}`);
      ctx.log(
        `  per batch: ${f.send_actions_per_commit} sends, COMMIT ${f.send_commit_ms} ms, WAL fsync ${f.send_wal_fsync_ms} ms; server CPU ${f.send_server_cpu_us} µs per send`,
      );

      // Memory per undelivered event: the heap with the queues' backlog, less the heap once they are deleted.
      const withQueues = await memoryReport(server.proc.pid, logFile);
      await deleteQueues(queues);
      const without = await memoryReport(server.proc.pid, logFile);
      const perEvent = ((withQueues.heap_used_mb - without.heap_used_mb) * 2 ** 20) / withQueues.queued_events;
      Object.assign(f, {
        queued_events: withQueues.queued_events,
        queue_heap_mb: round(withQueues.heap_used_mb - without.heap_used_mb),
        bytes_per_queued_event: round(perEvent),
      });
      ctx.log(`  ${withQueues.queued_events} undelivered events: ${round(perEvent)} B each`);

      const rand = (
        (seed) => () =>
          (seed = (seed * 1103515245 + 12345) >>> 0) / 2 ** 32
      )(7);
      const narrows = Array.from({ length: 500 }, () => {
        const c = g.channels[Math.floor(rand() * g.channels.length)]!;
        const narrow = JSON.stringify([
          { operator: "channel", operand: c.id },
          { operator: "topic", operand: g.topics[Math.floor(rand() * g.topics.length)] },
        ]);
        return `/api/v1/messages?${new URLSearchParams({ anchor: "newest", num_before: "100", num_after: "0", narrow })}`;
      });
      const reader = basic(g.users[0]!);
      // Idle means idle: the send phase's deliveries are caught up first (how long that took is a figure).
      f.catch_up_after_sends_seconds = round(await untilQuiet(() => cpuMicros(server.proc.pid)));
      ctx.log(`channel+topic newest 100, one client back to back, ${SECONDS} s (after ${f.catch_up_after_sends_seconds} s of catch-up)`);
      const fetchIdle = await (
        await loadSpec(ctx, { url: server.url, mode: "get", seconds: SECONDS, concurrency: 1, auth: [reader], requests: narrows.map((path) => ({ path })) })
      ).result();
      Object.assign(f, { fetch_p50_ms: round(fetchIdle.median_ms, 2), fetch_p99_ms: round(fetchIdle.p99_ms, 2), fetch_errors: fetchIdle.errors });
      ctx.log(`  p50 ${f.fetch_p50_ms} ms, p99 ${f.fetch_p99_ms} ms`);

      // Latency during catch-up: the paced loop idle, then through a burst and until the server is quiet.
      const idleEnd = performance.now() + SECONDS * 1000;
      const pacedIdle = await pacedFetches(server.url, reader, narrows, () => performance.now() > idleEnd);
      ctx.log(`burst of ${BURST.toLocaleString()} sends with the paced fetch loop running through it and the catch-up after`);
      const burst = await loadSpec(ctx, {
        url: server.url,
        mode: "send",
        seconds: 0,
        concurrency: SENDERS,
        auth: senders,
        requests: sendRequests,
        count: BURST,
      });
      let burstDone = false;
      const burstResult = burst.result().finally(() => (burstDone = true));
      // Quiet: after the burst, a second in which the server used under a quarter of a core.
      const t0 = performance.now();
      let quietAt = 0;
      const watch = burstResult
        .catch(() => {})
        .then(() => untilQuiet(() => cpuMicros(server.proc.pid)))
        .then(() => (quietAt = performance.now()));
      // The issue's row is the catch-up after a burst (background work: backlog rows, search batches);
      // the fetches while the 16 senders are still being answered are reported beside it.
      const afterBurst = { when: () => burstDone, lat: [] as number[] };
      const beforeBurst = await metricTotals(server.url);
      const during = await pacedFetches(server.url, reader, narrows, () => quietAt > 0, afterBurst);
      await watch;
      const br = await burstResult;
      const slow = slowCommits(beforeBurst, await metricTotals(server.url));
      Object.assign(f, {
        paced_idle_p50_ms: round(pct(pacedIdle, 0.5), 2),
        paced_idle_p99_ms: round(pct(pacedIdle, 0.99), 2),
        burst_sends: br.requests,
        burst_errors: br.errors,
        burst_seconds: round(br.seconds),
        burst_and_catch_up_seconds: round((quietAt - t0) / 1000),
        burst_commits_over_25ms: slow.over25ms,
        burst_commits_over_100ms: slow.over100ms,
        burst_fetches: during.length,
        burst_fetch_p50_ms: round(pct(during, 0.5), 2),
        burst_fetch_p99_ms: round(pct(during, 0.99), 2),
        burst_fetch_max_ms: round(during.at(-1) ?? NaN, 2),
        burst_fetch_p99_vs_idle: round(pct(during, 0.99) / pct(pacedIdle, 0.99), 2),
        catch_up_fetches: afterBurst.lat.length,
        catch_up_p50_ms: round(pct(afterBurst.lat, 0.5), 2),
        catch_up_p99_ms: round(pct(afterBurst.lat, 0.99), 2),
        catch_up_max_ms: round(afterBurst.lat.at(-1) ?? NaN, 2),
        catch_up_p99_vs_idle: round(pct(afterBurst.lat, 0.99) / pct(pacedIdle, 0.99), 2),
        server_rss_mb_after: round(rssMb(server.proc.pid)),
      });
      ctx.log(
        `  idle p99 ${f.paced_idle_p99_ms} ms; during the burst p50 ${f.burst_fetch_p50_ms} ms, p99 ${f.burst_fetch_p99_ms} ms; catch-up after it p50 ${f.catch_up_p50_ms} ms, p99 ${f.catch_up_p99_ms} ms (${f.catch_up_fetches} fetches; ${f.burst_and_catch_up_seconds} s in all)`,
      );
    } finally {
      await stop(server.proc);
    }

    if (PARTS.has("profile") && profileWith) {
      ctx.log(`where a send's CPU goes: the send phase again, the server from source under --cpu-prof, ${SECONDS} s`);
      const p = await profileSends(ctx, dataDir, profileWith.holders, profileWith.sendSpec);
      f.profile_busy_samples = p.samples;
      f.profile_cpu_us_per_send = Math.round(p.cpuPerSend);
      for (const [part, share] of Object.entries(p.shares).sort((a, b) => b[1] - a[1])) f[`profile_${part}_pct`] = round(share * 100);
      ctx.log(
        `  ${Object.entries(p.shares)
          .map(([k, v]) => `${k} ${round(v * 100)}%`)
          .join(", ")} of ${p.samples} samples; ${f.profile_cpu_us_per_send} µs per send`,
      );
    }
  }

  let arm64 = 0;
  // --- linux-arm64 under qemu-user ---
  if (PARTS.has("arm64")) {
    tool("qemu-aarch64-static", ["qemu-user-static"]);
    if (typeof arm64Runner() === "string") tool("/usr/aarch64-linux-gnu/lib/ld-linux-aarch64.so.1", ["libc6-arm64-cross"]);
    const runner = arm64Runner();
    if (typeof runner === "string") f.arm64_smoke = `not run: ${runner}`;
    else {
      const exe = join(ctx.tmp, "confab-linux-arm64");
      const built = Bun.spawnSync([process.execPath, "scripts/build.ts", "--target", "linux-arm64", "--outfile", exe], {
        cwd: ROOT,
        stdout: "ignore",
        stderr: "inherit",
      });
      try {
        if (built.exitCode !== 0) throw new Error("the linux-arm64 build failed");
        const r = await smoke(exe, runner);
        f.arm64_smoke = `${r.version}; server_settings ${r.server_settings_status}; started in ${r.start_ms} ms under qemu`;
        arm64 = r.server_settings_status === 200 ? 1 : 0;
      } catch (e) {
        f.arm64_smoke = `failed: ${(e as Error).message}`;
      }
    }
    ctx.log(`arm64: ${f.arm64_smoke}`);
  }

  const num = (k: string) => (typeof f[k] === "number" ? (f[k] as number) : NaN);
  return {
    figures: f,
    targets: [
      {
        label: `cold start, empty data dir (median of ${STARTS}; bare ${f.bare_cold_start_ms_median} ms)`,
        value: num("cold_start_empty_ms_median"),
        unit: "ms",
        op: "<",
        limit: 40.01,
      },
      {
        label: `cold start, migrated data dir (bare ${f.bare_cold_start_ms_median} ms; stack floor ${f.stack_floor_cold_start_ms_median} ms)`,
        value: num("cold_start_migrated_ms_median"),
        unit: "ms",
        op: "<",
        limit: 30.01,
      },
      {
        label: `idle RSS after start (bare ${f.bare_idle_rss_mb} MB; stack floor ${f.stack_floor_idle_rss_mb} MB)`,
        value: num("idle_rss_mb"),
        unit: "MB",
        op: "<",
        limit: 35.01,
      },
      {
        label: `GET /users/me, wrk 32 connections, ratio to bare (${f.users_me_wrk_rps} vs ${f.bare_wrk_rps} req/s)`,
        value: num("users_me_wrk_ratio"),
        unit: "",
        op: ">=",
        limit: 0.6,
      },
      {
        label: `durable channel sends/s, 100 subscribers, ${QUEUES} queues, 16 connections, ${MESSAGES.toLocaleString()} messages`,
        value: num("send_per_second"),
        unit: "msg/s",
        op: ">=",
        limit: 7000,
      },
      { label: "  their p99", value: num("send_p99_ms"), unit: "ms", op: "<", limit: 10.01 },
      { label: "channel+topic newest 100, p50 (keep: 1.29 ms)", value: num("fetch_p50_ms"), unit: "ms", op: "<", limit: 1.5 },
      { label: "channel+topic newest 100, p99 (keep: 3.36 ms)", value: num("fetch_p99_ms"), unit: "ms", op: "<", limit: 4 },
      {
        label: `the same fetch while the server catches up after a ${BURST.toLocaleString()}-send burst: p99 / idle p99 (${f.catch_up_p99_ms} vs ${f.paced_idle_p99_ms} ms; during the burst itself ${f.burst_fetch_p99_ms} ms)`,
        value: num("catch_up_p99_vs_idle"),
        unit: "×",
        op: "<",
        limit: 2.01,
      },
      { label: "memory per undelivered message event in a queue", value: num("bytes_per_queued_event"), unit: "B", op: "<", limit: 16.01 },
      { label: "linux-arm64 executable under qemu: version, serve, server_settings", value: arm64, unit: "", op: ">=", limit: 1 },
    ],
  };
}
