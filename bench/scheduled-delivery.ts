// Scheduled messages on the compiled server: how late each is sent after its scheduled second.
//  - MESSAGES direct messages to oneself, due over the next few seconds (several per second), are
//    scheduled over HTTP; a long-polling event queue records when each message event arrives, and
//    the lateness is that arrival minus scheduled_delivery_timestamp (a whole second) * 1000.
//  - A restart: one message due while the server is down, sent when it starts again: the time from
//    the new process's start to the message event (its cold start included).
import { join } from "node:path";
import { median, serveExe, stop } from "./lib/proc";
import { basic, seedUsers, type Cred } from "./lib/seed";
import type { BenchContext, BenchResult } from "./lib/types";

const MESSAGES = Number(process.env.BENCH_SCHEDULED ?? 40);
const SPREAD_SECONDS = 4;

const round = (x: number) => Math.round(x * 10) / 10;

async function call(url: string, who: Cred, method: string, path: string, params: Record<string, unknown> = {}) {
  const form = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) form.set(k, typeof v === "string" ? v : JSON.stringify(v));
  const q = method === "GET" ? `?${form}` : "";
  const res = await fetch(`${url}/api/v1${path}${q}`, {
    method,
    headers: { Authorization: basic(who), ...(method === "GET" ? {} : { "Content-Type": "application/x-www-form-urlencoded" }) },
    body: method === "GET" ? undefined : form,
  });
  const body = (await res.json()) as Record<string, any>;
  if (body.result !== "success") throw new Error(`${method} ${path}: ${JSON.stringify(body)}`);
  return body;
}

/** Arrival times (ms since the epoch) of message events with these contents, until all have arrived. */
async function arrivals(url: string, who: Cred, queue: Record<string, any>, contents: Set<string>, timeoutMs: number): Promise<Map<string, number>> {
  const seen = new Map<string, number>();
  let last = -1;
  const until = Date.now() + timeoutMs;
  while (seen.size < contents.size) {
    if (Date.now() > until) throw new Error(`only ${seen.size} of ${contents.size} scheduled messages arrived`);
    const { events } = await call(url, who, "GET", "/events", { queue_id: queue.queue_id, last_event_id: last });
    const now = Date.now();
    for (const e of events) {
      last = Math.max(last, e.id);
      if (e.type === "message" && contents.has(e.message.content) && !seen.has(e.message.content)) seen.set(e.message.content, now);
    }
  }
  return seen;
}

export async function run(ctx: BenchContext): Promise<BenchResult> {
  const dataDir = join(ctx.tmp, "data");
  const { owner } = await seedUsers(dataDir, 0);
  let s = await serveExe(ctx.exe, dataDir, `${dataDir}.log`);
  let lateness: number[];
  let restartMs: number;
  try {
    const queue = await call(s.url, owner, "POST", "/register", { event_types: ["message"], apply_markdown: false });
    const base = Math.floor(Date.now() / 1000) + 2;
    const due = new Map<string, number>();
    ctx.log(`scheduling ${MESSAGES} messages over ${SPREAD_SECONDS} s`);
    for (let i = 0; i < MESSAGES; i++) {
      const at = base + (i % SPREAD_SECONDS);
      due.set(`scheduled ${i}`, at);
      await call(s.url, owner, "POST", "/scheduled_messages", { type: "direct", to: [owner.id], content: `scheduled ${i}`, scheduled_delivery_timestamp: at });
    }
    const seen = await arrivals(s.url, owner, queue, new Set(due.keys()), 30_000);
    lateness = [...seen].map(([content, t]) => t - due.get(content)! * 1000);

    ctx.log("restart with a message due while the server is down");
    const at = Math.floor(Date.now() / 1000) + 1;
    await call(s.url, owner, "POST", "/scheduled_messages", { type: "direct", to: [owner.id], content: "while down", scheduled_delivery_timestamp: at });
    await stop(s.proc);
    await Bun.sleep(Math.max(0, at * 1000 - Date.now()) + 200);
    const started = Date.now();
    s = await serveExe(ctx.exe, dataDir, `${dataDir}.log`);
    const after = await call(s.url, owner, "GET", "/messages", {
      anchor: "newest",
      num_before: 1,
      num_after: 0,
      narrow: [{ operator: "dm", operand: [owner.id] }],
      apply_markdown: false,
    });
    if (after.messages[0]?.content !== "while down") throw new Error("the message due while the server was down was not sent at start");
    restartMs = Date.now() - started;
  } finally {
    await stop(s.proc);
  }
  const sorted = [...lateness].sort((a, b) => a - b);
  const max = sorted[sorted.length - 1]!;
  return {
    figures: {
      scheduled_messages: MESSAGES,
      lateness_median_ms: round(median(lateness)),
      lateness_max_ms: round(max),
      lateness_min_ms: round(sorted[0]!),
      restart_to_sent_ms: restartMs,
    },
    targets: [
      { label: `scheduled message sent after its second (max of ${MESSAGES})`, value: round(max), unit: "ms", op: "<", limit: 1000 },
      { label: "scheduled message sent before its second (min, negative means early)", value: round(sorted[0]!), unit: "ms", op: ">=", limit: 0 },
    ],
  };
}
