// Event queues on the compiled server, load from a separate process (bench/lib/events-client.ts):
//  - 10,000 registered queues, each with an open long-poll: resident memory per queue;
//  - one message to a channel of 1,000 subscribers who each hold a long-poll: all receive it, and the
//    99th-percentile arrival after the send's answer;
//  - one queue holding 10,000 undelivered events: what it costs beyond the same sends without a queue.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { memoryReport, rssMb, serveExe, stop } from "./lib/proc";
import { basic, seedUsers, type Cred } from "./lib/seed";
import type { BenchContext, BenchResult } from "./lib/types";

const USERS = 1000;
const QUEUES = Number(process.env.BENCH_QUEUES ?? 10_000);
const BACKLOG = Number(process.env.BENCH_BACKLOG ?? 10_000);
const CLIENT = join(import.meta.dir, "lib", "events-client.ts");

async function client(ctx: BenchContext, mode: string, url: string, spec: object, keepStdin = false) {
  const file = join(ctx.tmp, `${mode}.json`);
  writeFileSync(file, JSON.stringify(spec));
  return Bun.spawn([process.execPath, CLIENT, mode, url, file], {
    env: { ...process.env, BUN_CONFIG_MAX_HTTP_REQUESTS: String(QUEUES + 256) },
    stdin: keepStdin ? "pipe" : "ignore",
    stdout: "pipe",
    stderr: "inherit",
  });
}

/** Reads the client's first JSON line. */
async function firstLine(proc: ReturnType<typeof Bun.spawn>): Promise<any> {
  const reader = (proc.stdout as ReadableStream<Uint8Array>).getReader();
  let text = "";
  for (;;) {
    const { value, done } = await reader.read();
    if (done) throw new Error(`client ended without output (exit ${await proc.exited})`);
    text += new TextDecoder().decode(value);
    const nl = text.indexOf("\n");
    if (nl >= 0) {
      reader.releaseLock();
      return JSON.parse(text.slice(0, nl));
    }
  }
}

async function api(url: string, c: Cred, method: string, path: string, params: Record<string, unknown>) {
  const form = new URLSearchParams(Object.entries(params).map(([k, v]): [string, string] => [k, typeof v === "string" ? v : JSON.stringify(v)]));
  const res = await fetch(`${url}/api/v1${path}${method === "GET" ? `?${form}` : ""}`, {
    method,
    headers: { Authorization: basic(c), "Content-Type": "application/x-www-form-urlencoded" },
    body: method === "GET" ? undefined : form,
  });
  const body = (await res.json()) as any;
  if (body.result !== "success") throw new Error(`${method} ${path}: ${JSON.stringify(body).slice(0, 300)}`);
  return body;
}

/** RSS after letting the server settle (the allocator returns freed pages lazily). */
async function settledRss(pid: number) {
  await Bun.sleep(1500);
  return rssMb(pid);
}

export async function run(ctx: BenchContext): Promise<BenchResult> {
  const dataDir = join(ctx.tmp, "data");
  ctx.log(`seeding ${USERS} users`);
  const { owner, users } = await seedUsers(dataDir, USERS);
  const logFile = join(ctx.tmp, "server.log");
  const { proc: server, url } = await serveExe(ctx.exe, dataDir, logFile);
  try {
    // The backlog runs first: later phases leave held polls and queues behind that would blur its heap figures.
    ctx.log(`${BACKLOG} undelivered events in one queue`);
    const [sender, control, holder] = users as [Cred, Cred, Cred];
    const flood = async (to: Cred, count: number) => firstLine(await client(ctx, "flood", url, { sender, to, count }));
    // Warm up the direct-message path and fill the shared message cache (bounded, shared by all queues)
    // so that neither counts as the queue's cost.
    await flood(control, 3000);
    const m0 = await memoryReport(server.pid, logFile);
    await flood(control, BACKLOG);
    const m1 = await memoryReport(server.pid, logFile);
    const q = await api(url, holder, "POST", "/register", { event_types: ["message"], fetch_event_types: [] });
    const sends = await flood(holder, BACKLOG);
    const m2 = await memoryReport(server.pid, logFile);
    const pending = await api(url, holder, "GET", "/events", { queue_id: q.queue_id, dont_block: true });
    // What the queue itself holds: the heap with it, less the heap once it is deleted (all else equal).
    await api(url, holder, "DELETE", "/events", { queue_id: q.queue_id });
    const m3 = await memoryReport(server.pid, logFile);
    const backlogMb = m2.heap_used_mb - m3.heap_used_mb;
    ctx.log(
      `  queue holds ${pending.events.length} events: ${backlogMb.toFixed(2)} MB of heap (growth while it filled ${(m2.heap_used_mb - m1.heap_used_mb).toFixed(2)} MB; the same sends with no queue ${(m1.heap_used_mb - m0.heap_used_mb).toFixed(2)} MB)`,
    );

    ctx.log(`fan-out: one message to a channel of ${USERS} subscribers, each holding a long-poll`);
    await api(url, owner, "POST", "/channels/create", { name: "fan-out", subscribers: users.map((u) => u.id) });
    const fan = await client(ctx, "fanout", url, { users, sender: owner, channel: "fan-out" });
    const fanout = await firstLine(fan);
    await fan.exited;
    ctx.log(`  ${fanout.received}/${fanout.of} received; p50 ${fanout.p50_ms.toFixed(1)} ms, p99 ${fanout.p99_ms.toFixed(1)} ms`);

    ctx.log(`${QUEUES} queues, each with an open long-poll`);
    const before = await settledRss(server.pid);
    const hold = await client(ctx, "hold", url, { users, queues: QUEUES }, true);
    const { ready } = await firstLine(hold);
    const held = await settledRss(server.pid);
    const perQueueKb = ((held - before) * 1024) / ready;
    ctx.log(`  ${ready} queues held: ${(held - before).toFixed(1)} MB, ${perQueueKb.toFixed(2)} KB each`);
    (hold.stdin as import("bun").FileSink).end();
    await hold.exited;

    return {
      figures: {
        fanout_received: fanout.received,
        fanout_subscribers: fanout.of,
        fanout_send_ms: round(fanout.send_ms),
        fanout_p50_ms: round(fanout.p50_ms),
        fanout_p99_ms: round(fanout.p99_ms),
        fanout_max_ms: round(fanout.max_ms),
        held_queues: ready,
        rss_before_queues_mb: round(before),
        rss_with_queues_mb: round(held),
        rss_per_held_queue_kb: round(perQueueKb, 2),
        backlog_events: pending.events.length,
        backlog_send_rate_per_s: Math.round(BACKLOG / sends.seconds),
        heap_growth_sends_without_queue_mb: round(m1.heap_used_mb - m0.heap_used_mb, 2),
        backlog_heap_before_mb: m1.heap_used_mb,
        backlog_heap_after_mb: m2.heap_used_mb,
        backlog_heap_after_delete_mb: m3.heap_used_mb,
        backlog_queue_cost_mb: round(backlogMb, 2),
      },
      targets: [
        { label: "fan-out: subscribers who got the message", value: fanout.received, unit: "", op: ">=", limit: USERS },
        { label: "fan-out: 99th-percentile arrival after the send's answer", value: round(fanout.p99_ms), unit: "ms", op: "<", limit: 50 },
        { label: "resident memory per queue with an open long-poll", value: round(perQueueKb, 2), unit: "KB", op: "<", limit: 20 },
        { label: "a queue holding 10,000 undelivered events", value: round(backlogMb, 2), unit: "MB", op: "<", limit: 5 },
      ],
    };
  } finally {
    await stop(server);
  }
}

const round = (x: number, digits = 1) => Math.round(x * 10 ** digits) / 10 ** digits;
