// Past one machine (issue 21): confab on PostgreSQL beside SQLite, on one node and on several.
//  - sends/s, 16 senders to a 100-subscriber channel with 99 open queues: SQLite; PostgreSQL with one
//    node; PostgreSQL with two nodes (senders and queues split over them), on the same data;
//  - fan-out: from a send's answer on node A to its arrival at BENCH_POLLS (default 1,000) long-polls
//    spread over nodes B and C (p99 target: 50 ms);
//  - GET /messages on BENCH_MESSAGES (default 1,000,000) messages: channel+topic newest 100 and searches,
//    one client back to back, p50/p99 on each engine.
// The data: bench/messages.ts's generator writes the SQLite database; `confab migrate-storage` copies it
// into a PostgreSQL cluster started for the run (Debian's binaries, fsync on, as in production).
// `npm run bench -- scaling`; while developing e.g. BENCH_MESSAGES=50000 BENCH_SECONDS=3 BENCH_POLLS=200,
// BENCH_PARTS=sends,fanout,fetch to choose.
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { generate } from "./messages";
import { cpuMicros, serveExe, stop, untilQuiet, waitForIntegrityCheck } from "./lib/proc";
import { deleteQueues, registerQueues } from "./lib/queues";
import { basic } from "./lib/seed";
import type { BenchContext, BenchResult } from "./lib/types";
import { postgresMissing, startPostgres, type Postgres } from "../test/helpers/postgres";

const MESSAGES = Number(process.env.BENCH_MESSAGES ?? 1_000_000);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const POLLS = Number(process.env.BENCH_POLLS ?? 1000);
const FANOUT_MESSAGES = Number(process.env.BENCH_FANOUT_MESSAGES ?? 50);
const PARTS = new Set((process.env.BENCH_PARTS ?? "sends,fanout,fetch").split(","));
const SENDERS = 16;
const QUEUES = 99;
const LOAD = join(import.meta.dir, "lib", "messages-load.ts");
const FANOUT = join(import.meta.dir, "lib", "fanout-client.ts");

type Node = Awaited<ReturnType<typeof serveExe>>;
type Load = { requests: number; errors: number; rps: number; seconds: number; median_ms: number; p99_ms: number; first_error?: string };

const round = (x: number, digits = 1) => Math.round(x * 10 ** digits) / 10 ** digits;

/** Runs a helper script in its own process with `spec`; its one JSON line. */
async function runScript<T>(ctx: BenchContext, script: string, spec: object): Promise<T> {
  return (await runScriptWithCpu<T>(ctx, script, spec)).result;
}

/** runScript, and the CPU time the script's process used (µs). */
async function runScriptWithCpu<T>(ctx: BenchContext, script: string, spec: object): Promise<{ result: T; cpuUs: number }> {
  const file = join(ctx.tmp, `spec-${performance.now()}.json`);
  writeFileSync(file, JSON.stringify(spec));
  const proc = Bun.spawn([process.execPath, script, file], {
    env: { ...process.env, BUN_CONFIG_MAX_HTTP_REQUESTS: "4096" },
    stdout: "pipe",
    stderr: "inherit",
  });
  const out = await new Response(proc.stdout).text();
  if ((await proc.exited) !== 0) throw new Error(`${script} failed: ${out}`);
  const usage = proc.resourceUsage();
  return { result: JSON.parse(out) as T, cpuUs: usage ? Number(usage.cpuTime.user + usage.cpuTime.system) : Number.NaN };
}

/** CPU time used so far by the PostgreSQL cluster: the postmaster and every backend it forked. */
function postgresCpu(pg: Postgres): number {
  let total = 0;
  for (const d of readdirSync("/proc")) {
    if (!/^\d+$/.test(d)) continue;
    try {
      const stat = readFileSync(`/proc/${d}/stat`, "utf8");
      const ppid = Number(stat.split(") ")[1]!.split(" ")[1]);
      if (Number(d) === pg.pid || ppid === pg.pid) total += cpuMicros(Number(d));
    } catch {
      // gone meanwhile
    }
  }
  return total;
}

export async function run(ctx: BenchContext): Promise<BenchResult> {
  const f: Record<string, number | string> = {};
  const missing = postgresMissing("bench scaling");
  if (missing) return { figures: { skipped: missing }, targets: [] };

  const sqliteDir = join(ctx.tmp, "sqlite");
  ctx.log(`generating ${MESSAGES.toLocaleString()} messages (bench/messages.ts's database)`);
  const g = await generate(sqliteDir, ctx.log, { users: 200, messages: MESSAGES });
  f.messages = MESSAGES;
  f.user_message_rows = g.userMessageRows;

  const pg = await startPostgres({ durable: true, settings: { max_connections: "300", shared_buffers: "1GB" } });
  const logFile = join(ctx.tmp, "nodes.log");
  const nodes: Node[] = [];
  try {
    const url = await pg.createDatabase("bench");
    ctx.log("copying it into PostgreSQL (confab migrate-storage)");
    const t0 = performance.now();
    const copy = Bun.spawnSync([ctx.exe, "migrate-storage", "--data-dir", sqliteDir, "--to", url], { stdout: "pipe", stderr: "pipe" });
    if (copy.exitCode !== 0) throw new Error(`migrate-storage failed: ${copy.stderr.toString()}${copy.stdout.toString()}`);
    f.copy_seconds = round((performance.now() - t0) / 1000);
    ctx.log(`  ${f.copy_seconds} s`);
    // Every node shares one data directory (uploads and the secrets key live there: shared storage).
    const pgDir = join(ctx.tmp, "pg-data");
    mkdirSync(pgDir, { recursive: true });
    for (const file of ["secrets.key"]) {
      try {
        writeFileSync(join(pgDir, file), readFileSync(join(sqliteDir, file)), { mode: 0o600 });
      } catch {
        // not there: the node makes its own
      }
    }
    const pgEnv = { CONFAB_STORAGE_DRIVER: "postgres", CONFAB_STORAGE_URL: url };
    const startNodes = async (n: number, engine: "sqlite" | "postgres") => {
      const started: Node[] = [];
      for (let i = 0; i < n; i++) {
        const node = await serveExe(ctx.exe, engine === "sqlite" ? sqliteDir : pgDir, logFile, 600_000, engine === "sqlite" ? {} : pgEnv);
        if (engine === "sqlite") await waitForIntegrityCheck(node.url);
        started.push(node);
        nodes.push(node);
      }
      return started;
    };
    const stopNodes = async (ns: Node[]) => {
      for (const n of ns) {
        await stop(n.proc);
        nodes.splice(nodes.indexOf(n), 1);
      }
    };
    /** One part of the run: a failure is a figure (what failed), and the parts after it still run. */
    const part = async (name: string, fn: () => Promise<void>) => {
      if (!PARTS.has(name)) return;
      try {
        await fn();
      } catch (e) {
        f[`${name}_failed`] = String((e as Error).message ?? e).slice(0, 300);
        ctx.log(`${name} failed: ${f[`${name}_failed`]}`);
        await stopNodes([...nodes]);
      }
    };

    const target = g.channels[0]!;
    const byId = new Map(g.users.map((u) => [u.id, u]));
    const subscribers = target.subscribers.map((id) => byId.get(id)!);
    const senders = subscribers.slice(0, SENDERS).map(basic);
    const holders = subscribers.slice(1, 1 + QUEUES).map(basic);
    const contents = Array.from({ length: 64 }, (_, i) => `Benchmark message ${i}: ${g.words.slice(i * 7, i * 7 + 12).join(" ")} with **bold** and \`code\``);
    const sendRequests = contents.map((content, i) => ({
      path: "/api/v1/messages",
      form: { type: "stream", to: String(target.id), topic: `send ${i % 8}`, content },
    }));

    // --- GET /messages on each engine ---
    await part("fetch", async () => {
      const rand = (
        (seed) => () =>
          (seed = (seed * 1103515245 + 12345) >>> 0) / 2 ** 32
      )(7);
      const path = (narrow: object[]) =>
        `/api/v1/messages?${new URLSearchParams({ anchor: "newest", num_before: "100", num_after: "0", narrow: JSON.stringify(narrow) })}`;
      const narrows = Array.from({ length: 500 }, () => {
        const ch = g.channels[Math.floor(rand() * g.channels.length)]!;
        return path([
          { operator: "channel", operand: ch.id },
          { operator: "topic", operand: g.topics[Math.floor(rand() * g.topics.length)] },
        ]);
      });
      // Words across the vocabulary's spread (the generator favours its first words), alone and in pairs.
      const made = g.words.slice(0, 4000);
      const picks = [0, 3, 10, 30, 100, 300, 1000, 2000, 3000, 3900].map((i) => made[i]!);
      const searches = [
        ...picks.map((w) => path([{ operator: "search", operand: w }])),
        ...picks.slice(0, 5).map((w, i) => path([{ operator: "search", operand: `${w} ${picks[i + 5]}` }])),
      ];
      const reader = basic(g.users[0]!);
      for (const engine of ["sqlite", "postgres"] as const) {
        const [n] = await startNodes(1, engine);
        await untilQuiet(() => cpuMicros(n!.proc.pid) + postgresCpu(pg));
        for (const [what, paths] of [
          ["narrow", narrows],
          ["search", searches],
        ] as const) {
          const r = await runScript<Load>(ctx, LOAD, {
            url: n!.url,
            mode: "get",
            seconds: SECONDS,
            concurrency: 1,
            auth: [reader],
            requests: paths.map((p) => ({ path: p })),
          });
          Object.assign(f, {
            [`fetch_${what}_${engine}_p50_ms`]: round(r.median_ms, 2),
            [`fetch_${what}_${engine}_p99_ms`]: round(r.p99_ms, 2),
            [`fetch_${what}_${engine}_errors`]: r.errors,
          });
          ctx.log(
            `${what} on ${engine}: p50 ${round(r.median_ms, 2)} ms, p99 ${round(r.p99_ms, 2)} ms, ${r.errors} errors${r.first_error ? ` (${r.first_error})` : ""}`,
          );
        }
        await stopNodes([n!]);
      }
    });

    // --- Sends on each engine ---
    await part("sends", async () => {
      for (const [label, engine, count] of [
        ["sqlite", "sqlite", 1],
        ["postgres_1_node", "postgres", 1],
        ["postgres_2_nodes", "postgres", 2],
      ] as const) {
        const ns = await startNodes(count, engine);
        const urls = ns.map((n) => n.url);
        const cpu = () => ns.reduce((a, n) => a + cpuMicros(n.proc.pid), 0) + postgresCpu(pg);
        await untilQuiet(cpu);
        const queues = await registerQueues(urls, holders);
        ctx.log(`sends, ${label}: ${SENDERS} connections over ${count} node(s), ${queues.length} open queues, ${SECONDS} s`);
        const confabBefore = ns.reduce((a, n) => a + cpuMicros(n.proc.pid), 0);
        const pgBefore = postgresCpu(pg);
        const r = await runScript<Load>(ctx, LOAD, {
          url: urls[0],
          urls,
          mode: "send",
          seconds: SECONDS,
          concurrency: SENDERS,
          auth: senders,
          requests: sendRequests,
        });
        const confabCpu = (ns.reduce((a, n) => a + cpuMicros(n.proc.pid), 0) - confabBefore) / Math.max(1, r.requests);
        const pgCpu = engine === "postgres" ? (postgresCpu(pg) - pgBefore) / Math.max(1, r.requests) : 0;
        Object.assign(f, {
          [`send_${label}_per_second`]: Math.round(r.rps),
          [`send_${label}_p50_ms`]: round(r.median_ms, 2),
          [`send_${label}_p99_ms`]: round(r.p99_ms, 2),
          [`send_${label}_errors`]: r.errors,
          [`send_${label}_confab_cpu_us`]: Math.round(confabCpu),
          ...(engine === "postgres" ? { [`send_${label}_postgres_cpu_us`]: Math.round(pgCpu) } : {}),
        });
        ctx.log(
          `  ${f[`send_${label}_per_second`]}/s, p99 ${f[`send_${label}_p99_ms`]} ms, ${r.errors} errors${r.first_error ? ` (${r.first_error})` : ""}; CPU per send: confab ${Math.round(confabCpu)} µs${engine === "postgres" ? `, PostgreSQL ${Math.round(pgCpu)} µs` : ""}`,
        );
        await deleteQueues(queues);
        await stopNodes(ns);
      }
    });

    // --- Fan-out: a send on A, long-polls on B and C ---
    await part("fanout", async () => {
      const [a, b, c] = await startNodes(3, "postgres");
      await untilQuiet(() => [a!, b!, c!].reduce((t, n) => t + cpuMicros(n.proc.pid), 0) + postgresCpu(pg));
      const auths = Array.from({ length: POLLS }, (_, i) => basic(subscribers[1 + (i % (subscribers.length - 1))]!));
      ctx.log(`fan-out: ${POLLS} long-polls over nodes B and C, ${FANOUT_MESSAGES} sends on node A`);
      const queues = await registerQueues([b!.url, c!.url], auths);
      // Where the CPU goes while it runs (2 cores for 3 nodes, PostgreSQL and the client's 1,000 polls).
      const cpuOf = (n: Node) => cpuMicros(n.proc.pid);
      const before = { a: cpuOf(a!), bc: cpuOf(b!) + cpuOf(c!), pg: postgresCpu(pg) };
      const { result: r, cpuUs: clientCpu } = await runScriptWithCpu<{
        deliveries: number;
        missing: number;
        poll_errors: number;
        p50_ms: number;
        p99_ms: number;
        max_ms: number;
        send_p50_ms: number;
      }>(ctx, FANOUT, {
        send: { url: a!.url, auth: basic(subscribers[0]!), form: { type: "stream", to: String(target.id), topic: "fan-out" } },
        polls: queues.map((q) => ({ url: q.url, auth: q.auth, queueId: q.id, lastEventId: q.last })),
        messages: FANOUT_MESSAGES,
        intervalMs: 100,
      });
      const perSend = (us: number) => Math.round(us / 1000 / FANOUT_MESSAGES);
      Object.assign(f, {
        fanout_cpu_ms_per_send_node_a: perSend(cpuOf(a!) - before.a),
        fanout_cpu_ms_per_send_nodes_b_c: perSend(cpuOf(b!) + cpuOf(c!) - before.bc),
        fanout_cpu_ms_per_send_postgres: perSend(postgresCpu(pg) - before.pg),
        fanout_cpu_ms_per_send_client: perSend(clientCpu),
        fanout_polls: POLLS,
        fanout_deliveries: r.deliveries,
        fanout_missing: r.missing,
        fanout_poll_errors: r.poll_errors,
        fanout_p50_ms: round(r.p50_ms, 2),
        fanout_p99_ms: round(r.p99_ms, 2),
        fanout_max_ms: round(r.max_ms, 2),
        fanout_send_p50_ms: round(r.send_p50_ms, 2),
      });
      ctx.log(`  p50 ${f.fanout_p50_ms} ms, p99 ${f.fanout_p99_ms} ms, max ${f.fanout_max_ms} ms; ${r.deliveries} deliveries, ${r.missing} missing`);
      ctx.log(
        `  CPU per send (ms, the run's whole time over its sends): node A ${f.fanout_cpu_ms_per_send_node_a}, nodes B and C ${f.fanout_cpu_ms_per_send_nodes_b_c}, PostgreSQL ${f.fanout_cpu_ms_per_send_postgres}, the polling client ${f.fanout_cpu_ms_per_send_client}`,
      );
      await deleteQueues(queues);
      await stopNodes([a!, b!, c!]);
    });
  } finally {
    for (const n of [...nodes]) await stop(n.proc);
    await pg.stop();
  }

  const num = (k: string) => (typeof f[k] === "number" ? (f[k] as number) : NaN);
  return {
    figures: f,
    // PostgreSQL's sends and both engines' fetches have no target in the issue: their figures stand beside SQLite's.
    targets: [
      {
        label: `SQLite sends/s, 16 senders, 100 subscribers, ${QUEUES} queues (${MESSAGES.toLocaleString()} messages)`,
        value: num("send_sqlite_per_second"),
        unit: "msg/s",
        op: ">=",
        limit: 7000,
      },
      {
        label: `send on node A → ${POLLS} long-polls on B and C, p99 (p50 ${f.fanout_p50_ms} ms)`,
        value: num("fanout_p99_ms"),
        unit: "ms",
        op: "<",
        limit: 50.01,
      },
    ],
  };
}
