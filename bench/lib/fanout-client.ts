// How fast a message reaches long-polls held on other confab nodes, in its own process (so that its
// thousand open requests never share an event loop with a server):
//   bun bench/lib/fanout-client.ts SPEC.json
// SPEC: { send: { url, auth, form }, polls: { url, auth, queueId, lastEventId }[], messages, intervalMs }
// Each poll loops on GET /events; the sender sends `messages` messages one at a time, `intervalMs`
// apart. A figure is the time from a send's answer to its event's arrival at one poll (negative when
// the event arrived before the sender had read its answer). Prints one JSON line:
// { deliveries, missing, p50_ms, p99_ms, max_ms, send_p50_ms }.
import { readFileSync } from "node:fs";

interface Spec {
  send: { url: string; auth: string; form: Record<string, string> };
  polls: { url: string; auth: string; queueId: string; lastEventId: number }[];
  messages: number;
  intervalMs: number;
}

const spec = JSON.parse(readFileSync(process.argv[2]!, "utf8")) as Spec;
const answered = new Map<number, number>();
const arrivals: { id: number; at: number }[] = [];
const abort = new AbortController();
let pollErrors = 0;

async function poll(p: Spec["polls"][number]) {
  let last = p.lastEventId;
  while (!abort.signal.aborted) {
    try {
      const q = new URLSearchParams({ queue_id: p.queueId, last_event_id: String(last) });
      const res = await fetch(`${p.url}/api/v1/events?${q}`, { headers: { Authorization: p.auth }, signal: abort.signal });
      const body = (await res.json()) as { events?: { id: number; type: string; message?: { id: number } }[] };
      const at = performance.now();
      if (!res.ok) throw new Error(JSON.stringify(body));
      for (const e of body.events ?? []) {
        last = Math.max(last, e.id);
        if (e.type === "message") arrivals.push({ id: e.message!.id, at });
      }
    } catch (e) {
      if (abort.signal.aborted) return;
      pollErrors++;
      if (pollErrors === 1) console.error(`poll failed: ${String(e)}`);
      await Bun.sleep(100);
    }
  }
}

const polls = spec.polls.map(poll);
await Bun.sleep(1000); // every poll held
const sendTimes: number[] = [];
for (let i = 0; i < spec.messages; i++) {
  const t0 = performance.now();
  const res = await fetch(`${spec.send.url}/api/v1/messages`, {
    method: "POST",
    headers: { Authorization: spec.send.auth, "Content-Type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ ...spec.send.form, content: `fan-out ${i}` }),
  });
  const body = (await res.json()) as { id?: number };
  const at = performance.now();
  if (!res.ok || !body.id) throw new Error(`send failed: ${JSON.stringify(body)}`);
  answered.set(body.id, at);
  sendTimes.push(at - t0);
  await Bun.sleep(spec.intervalMs);
}
const expected = spec.messages * spec.polls.length;
for (let waited = 0; waited < 10_000 && arrivals.filter((a) => answered.has(a.id)).length < expected; waited += 50) await Bun.sleep(50);
abort.abort();
await Promise.allSettled(polls);

const lat = arrivals
  .filter((a) => answered.has(a.id))
  .map((a) => a.at - answered.get(a.id)!)
  .sort((a, b) => a - b);
const pct = (xs: number[], p: number) => (xs.length ? xs[Math.min(xs.length - 1, Math.floor(xs.length * p))]! : NaN);
sendTimes.sort((a, b) => a - b);
console.log(
  JSON.stringify({
    deliveries: lat.length,
    missing: expected - lat.length,
    poll_errors: pollErrors,
    p50_ms: pct(lat, 0.5),
    p99_ms: pct(lat, 0.99),
    max_ms: lat.at(-1) ?? NaN,
    send_p50_ms: pct(sendTimes, 0.5),
  }),
);

export {}; // a module, for top-level await
