// The README editors for bench/readme.ts, in their own process: `bun bench/lib/readme-client.ts SPEC.json`.
// SPEC: { url, uuid, users: {email, key}[], rate (updates per second per client), seconds }.
// Every user is one client: a Y.Doc, an event queue long-polled for ext_readme, the README opened.
// Each sends `rate` small inserts a second for `seconds`; an update's time of arrival at every other
// client (from its own queue) is measured from just before its PATCH was sent. Then every client
// closes, and one JSON line reports: updates sent, arrivals expected and seen, latency percentiles,
// whether every client holds the same text, and that text.
import { readFileSync } from "node:fs";
import * as Y from "yjs";

interface Spec {
  url: string;
  uuid: string;
  users: { email: string; key: string }[];
  rate: number;
  seconds: number;
}

const spec = JSON.parse(readFileSync(process.argv[2]!, "utf8")) as Spec;
const b64 = (u: Uint8Array) => Buffer.from(u).toString("base64");

class Editor {
  doc = new Y.Doc();
  queue = "";
  lastEvent = -1;
  polling = true;
  readonly auth: string;
  constructor(
    readonly index: number,
    user: { email: string; key: string },
  ) {
    this.auth = "Basic " + Buffer.from(`${user.email}:${user.key}`).toString("base64");
  }
  get client() {
    return String(this.doc.clientID);
  }
  async call(method: string, path: string, params: Record<string, string> = {}) {
    const form = new URLSearchParams(params);
    const res = await fetch(`${spec.url}/api/v1${path}${method === "GET" ? `?${form}` : ""}`, {
      method,
      headers: { Authorization: this.auth, ...(method === "GET" ? {} : { "Content-Type": "application/x-www-form-urlencoded" }) },
      body: method === "GET" ? undefined : form,
    });
    const body = (await res.json()) as any;
    if (body.result !== "success") throw new Error(`${method} ${path}: ${JSON.stringify(body).slice(0, 300)}`);
    return body;
  }
}

const editors = spec.users.map((u, i) => new Editor(i, u));
const sentAt = new Map<string, number>(); // update (base64) → when its PATCH was sent
const latencies: number[] = [];
let arrivals = 0;

async function poll(e: Editor) {
  while (e.polling) {
    let body: any;
    try {
      body = await e.call("GET", "/events", { queue_id: e.queue, last_event_id: String(e.lastEvent) });
    } catch (err) {
      if (e.polling) throw err;
      return;
    }
    const now = performance.now();
    for (const ev of body.events) {
      e.lastEvent = Math.max(e.lastEvent, ev.id);
      if (ev.type !== "ext_readme" || ev.op !== "update" || ev.client === e.client) continue;
      const t = sentAt.get(ev.update);
      if (t !== undefined) latencies.push(now - t);
      arrivals++;
      Y.applyUpdate(e.doc, Buffer.from(ev.update, "base64"), "remote");
    }
  }
}

for (const e of editors) e.queue = (await e.call("POST", "/register", { event_types: JSON.stringify(["ext_readme"]) })).queue_id;
for (const e of editors) {
  const r = await e.call("POST", `/ext/workspaces/${spec.uuid}/readme`, { client: e.client });
  Y.applyUpdate(e.doc, Buffer.from(r.state, "base64"), "remote");
}
const polls = editors.map(poll);
await Bun.sleep(300); // every poll is held

const perClient = spec.rate * spec.seconds;
const interval = 1000 / spec.rate;
const start = performance.now();
let sent = 0;
await Promise.all(
  editors.map(async (e) => {
    await Bun.sleep((e.index * interval) / editors.length); // spread the clients over the interval
    for (let n = 0; n < perClient; n++) {
      const due = start + (e.index * interval) / editors.length + n * interval;
      const wait = due - performance.now();
      if (wait > 0) await Bun.sleep(wait);
      const text = e.doc.getText("readme");
      const before = Y.encodeStateVector(e.doc);
      text.insert(Math.floor(Math.random() * (text.length + 1)), `[${e.index}:${n}]`);
      const update = b64(Y.encodeStateAsUpdate(e.doc, before));
      sentAt.set(update, performance.now());
      await e.call("PATCH", `/ext/workspaces/${spec.uuid}/readme`, { client: e.client, update });
      sent++;
    }
  }),
);
const sendSeconds = (performance.now() - start) / 1000;

const expected = sent * (editors.length - 1);
const deadline = performance.now() + 15_000;
while (arrivals < expected && performance.now() < deadline) await Bun.sleep(20);
for (const e of editors) e.polling = false;
const texts = editors.map((e) => e.doc.getText("readme").toString());
for (const e of editors) await e.call("DELETE", `/ext/workspaces/${spec.uuid}/readme`, { client: e.client });
await Promise.race([Promise.allSettled(polls), Bun.sleep(100)]);

latencies.sort((a, b) => a - b);
const pct = (p: number) => (latencies.length ? latencies[Math.min(latencies.length - 1, Math.ceil(p * latencies.length) - 1)]! : NaN);
const converged = texts.filter((t) => t === texts[0]).length;
console.log(
  JSON.stringify({
    clients: editors.length,
    sent,
    send_seconds: sendSeconds,
    expected,
    arrivals,
    converged,
    p50_ms: pct(0.5),
    p99_ms: pct(0.99),
    max_ms: latencies.at(-1) ?? NaN,
    text: texts[0],
  }),
);
process.exit(0);
