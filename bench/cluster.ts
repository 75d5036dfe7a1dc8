// Issue 21: p99 from a send's answer on node A to its arrival at long-polls spread over nodes B and C,
// three confab nodes on one durable PostgreSQL (docs/scaling.md, section 3). BENCH_CLUSTER_POLLS held
// polls (default 1,000; the issue's figure), half on B, half on C, one user's queues; BENCH_CLUSTER_SENDS
// direct messages to that user, sent one after another through A, each once every poll has the one
// before. Latency = a poll's arrival time minus the send's answer time, both read in this process.
// `npm run bench -- --no-build cluster` runs the nodes from source when there is no dist/confab.
import { existsSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import { postgresMissing, startPostgres } from "../test/helpers/postgres";
import { NO_RATE_LIMITS } from "./lib/proc";
import type { BenchContext, BenchResult } from "./lib/types";

const POLLS = Number(process.env.BENCH_CLUSTER_POLLS ?? 1000);
const SENDS = Number(process.env.BENCH_CLUSTER_SENDS ?? 50);

const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))]!;
};
const r2 = (n: number) => Math.round(n * 100) / 100;

export async function run(ctx: BenchContext): Promise<BenchResult> {
  if (postgresMissing("cluster")) return { figures: { skipped: "no PostgreSQL binaries" }, targets: [] };
  const pg = await startPostgres({ durable: true, settings: { max_connections: "100" } });
  const program = existsSync(ctx.exe) ? [ctx.exe] : [process.execPath, join(import.meta.dir, "..", "cli", "index.ts")];
  const dataDir = join(ctx.tmp, "data");
  mkdirSync(dataDir, { recursive: true });
  const env = {
    ...NO_RATE_LIMITS,
    CONFAB_LOG_LEVEL: "info",
    CONFAB_STORAGE_DRIVER: "postgres",
    CONFAB_STORAGE_URL: await pg.createDatabase("cluster"),
    CONFAB_EVENTS_MAX_QUEUES_PER_USER: String(POLLS + 10),
    CONFAB_EVENTS_MAX_HELD_POLLS_PER_USER: String(POLLS + 10),
  };
  const nodes: { proc: ReturnType<typeof Bun.spawn>; url: string; out: () => string }[] = [];
  const start = async () => {
    const proc = Bun.spawn([...program, "serve", "--data-dir", dataDir, "--port", "0"], { env, stdout: "pipe", stderr: "pipe", stdin: "ignore" });
    let out = "";
    for (const s of [proc.stdout, proc.stderr] as ReadableStream<Uint8Array>[])
      void (async () => {
        for await (const chunk of s) out += new TextDecoder().decode(chunk);
      })();
    const until = Date.now() + 30_000;
    let url: string | undefined;
    while (!(url = / listening url=(\S+)/.exec(out)?.[1])) {
      if (Date.now() > until || proc.exitCode !== null) throw new Error(`a node did not start:\n${out}`);
      await Bun.sleep(20);
    }
    nodes.push({ proc, url, out: () => out });
  };
  try {
    await start();
    const email = /owner email: +(\S+)/.exec(nodes[0]!.out())![1]!;
    const key = /API key: +(\S+)/.exec(nodes[0]!.out())![1]!;
    await start();
    await start();
    const auth = "Basic " + Buffer.from(`${email}:${key}`).toString("base64");
    const call = async (url: string, method: string, path: string, params: Record<string, unknown>) => {
      const form = new URLSearchParams();
      for (const [k, v] of Object.entries(params)) form.set(k, typeof v === "string" ? v : JSON.stringify(v));
      const res = await fetch(`${url}/api/v1${path}${method === "GET" ? `?${form}` : ""}`, {
        method,
        headers: { Authorization: auth },
        body: method === "GET" ? undefined : form,
      });
      const body = (await res.json()) as Record<string, any>;
      if (body.result !== "success") throw new Error(`${method} ${path}: ${JSON.stringify(body)}`);
      return body;
    };
    const me = (await call(nodes[0]!.url, "GET", "/users/me", {})).user_id as number;
    ctx.log(`registering ${POLLS} queues on nodes B and C`);
    const queues: { url: string; id: string }[] = [];
    for (let i = 0; i < POLLS; i++) {
      const url = nodes[1 + (i % 2)]!.url;
      queues.push({ url, id: (await call(url, "POST", "/register", { event_types: ["message"] })).queue_id });
    }
    // Arrival times per message id, per poll.
    const arrived = queues.map(() => new Map<number, number>());
    let stopping = false;
    const loops = queues.map(async (q, i) => {
      let last = -1;
      while (!stopping) {
        const { events } = await call(q.url, "GET", "/events", { queue_id: q.id, last_event_id: last });
        const now = performance.now();
        for (const e of events) {
          if (e.type === "message") arrived[i]!.set(e.message.id, now);
          last = Math.max(last, e.id);
        }
      }
    });
    await Bun.sleep(500); // every poll held
    ctx.log(`${SENDS} sends through node A`);
    const lags: number[] = [];
    for (let n = 0; n < SENDS; n++) {
      const { id } = await call(nodes[0]!.url, "POST", "/messages", { type: "direct", to: [me], content: `lag ${n}` });
      const answered = performance.now();
      const until = Date.now() + 10_000;
      while (arrived.some((m) => !m.has(id))) {
        if (Date.now() > until) throw new Error(`message ${id} reached ${arrived.filter((m) => m.has(id)).length} of ${POLLS} polls`);
        await Bun.sleep(2);
      }
      for (const m of arrived) lags.push(m.get(id)! - answered);
    }
    stopping = true;
    await call(nodes[0]!.url, "POST", "/messages", { type: "direct", to: [me], content: "done" }); // releases the polls
    await Promise.allSettled(loops);
    const figures = {
      program: program.length === 1 ? "dist/confab" : "source",
      polls: POLLS,
      sends: SENDS,
      lag_p50_ms: r2(pct(lags, 50)),
      lag_p99_ms: r2(pct(lags, 99)),
      lag_max_ms: r2(Math.max(...lags)),
    };
    return {
      figures,
      targets: [{ label: `send answered on A → ${POLLS} long-polls on B and C, p99`, value: figures.lag_p99_ms, unit: "ms", op: "<", limit: 50 }],
    };
  } finally {
    for (const n of nodes) n.proc.kill("SIGTERM");
    await Promise.all(nodes.map((n) => n.proc.exited));
    await pg.stop();
  }
}
