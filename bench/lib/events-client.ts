// The event-queue load generator, in its own process: `bun bench/lib/events-client.ts MODE URL SPEC_FILE`.
//   hold:   registers spec.queues queues spread over spec.users, opens a long-poll on each, prints
//           {"ready": n} once every poll is sent, then keeps them open until stdin closes.
//   fanout: registers one message queue per user in spec.users, holds a poll on each, sends one channel
//           message as spec.sender, and reports each poll's arrival after the send's answer.
//   flood:  sends spec.count direct messages from spec.sender to spec.to (16 at a time).
// Prints JSON lines on stdout. BUN_CONFIG_MAX_HTTP_REQUESTS must allow one connection per poll.
import { readFileSync } from "node:fs";

type Cred = { id: number; email: string; key: string };
const [mode, base, specFile] = process.argv.slice(2);
const spec = JSON.parse(readFileSync(specFile!, "utf8"));
const auth = (c: Cred) => "Basic " + Buffer.from(`${c.email}:${c.key}`).toString("base64");
const out = (x: unknown) => process.stdout.write(JSON.stringify(x) + "\n");

async function call(c: Cred, method: string, path: string, params: Record<string, unknown> = {}) {
  const form = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) form.set(k, typeof v === "string" ? v : JSON.stringify(v));
  const url = method === "GET" ? `${base}/api/v1${path}?${form}` : `${base}/api/v1${path}`;
  const res = await fetch(url, {
    method,
    headers: { Authorization: auth(c), ...(method === "GET" ? {} : { "Content-Type": "application/x-www-form-urlencoded" }) },
    body: method === "GET" ? undefined : form,
  });
  const body = (await res.json()) as any;
  if (body.result !== "success") throw new Error(`${method} ${path}: ${JSON.stringify(body)}`);
  return body;
}

/** Runs `fn` over `items`, at most `width` at a time. */
async function pool<T>(items: T[], width: number, fn: (x: T, i: number) => Promise<void>) {
  let next = 0;
  await Promise.all(
    Array.from({ length: width }, async () => {
      while (next < items.length) {
        const i = next++;
        await fn(items[i]!, i);
      }
    }),
  );
}

if (mode === "hold") {
  const users: Cred[] = spec.users;
  const owners = Array.from({ length: spec.queues }, (_, i) => users[i % users.length]!);
  const queues: { c: Cred; id: string }[] = [];
  await pool(owners, 64, async (c) => {
    const r = await call(c, "POST", "/register", { fetch_event_types: [], event_types: ["message"] });
    queues.push({ c, id: r.queue_id });
  });
  for (const q of queues) call(q.c, "GET", "/events", { queue_id: q.id, last_event_id: -1 }).catch(() => {});
  out({ ready: queues.length });
  await new Response(Bun.stdin.stream()).text(); // held until the orchestrator closes stdin
  process.exit(0);
}

if (mode === "fanout") {
  const users: Cred[] = spec.users;
  const queues = await Promise.all(
    users.map(async (c) => ({ c, id: (await call(c, "POST", "/register", { event_types: ["message"], fetch_event_types: [] })).queue_id })),
  );
  const arrivals: number[] = [];
  const polls = queues.map((q) =>
    call(q.c, "GET", "/events", { queue_id: q.id, last_event_id: -1 }).then((r) => {
      if (r.events.some((e: any) => e.type === "message")) arrivals.push(performance.now());
    }),
  );
  await Bun.sleep(1000); // every poll is held by the server
  const sent = performance.now();
  await call(spec.sender, "POST", "/messages", { type: "stream", to: spec.channel, topic: "fan-out", content: "hello, everyone" });
  const answered = performance.now();
  await Promise.race([Promise.all(polls), Bun.sleep(10_000)]);
  const lat = arrivals.map((t) => Math.max(0, t - answered)).sort((a, b) => a - b);
  const pct = (p: number) => lat[Math.min(lat.length - 1, Math.ceil((p / 100) * lat.length) - 1)] ?? NaN;
  out({ received: arrivals.length, of: users.length, send_ms: answered - sent, p50_ms: pct(50), p99_ms: pct(99), max_ms: lat.at(-1) ?? NaN });
  process.exit(0);
}

if (mode === "flood") {
  const t0 = performance.now();
  await pool(
    Array.from({ length: spec.count }, (_, i) => i),
    16,
    async (i) => {
      await call(spec.sender, "POST", "/messages", { type: "direct", to: [spec.to.id], content: `message number ${i} with a little text, as people write` });
    },
  );
  out({ sent: spec.count, seconds: (performance.now() - t0) / 1000 });
  process.exit(0);
}

throw new Error(`unknown mode ${mode}`);
