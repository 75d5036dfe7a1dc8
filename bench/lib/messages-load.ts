// Load for bench/messages.ts, in its own process so it never shares an event loop with the server:
//   bun bench/lib/messages-load.ts SPEC.json
// SPEC: { url, mode: "send" | "get", seconds, concurrency, auth: string[] (one per loop, reused in turn),
//         urls?: string[] (several servers — confab nodes: loop i sends to urls[i % urls.length], not url),
//         requests: { path, form? }[] (picked in turn), count? }
// "send" POSTs forms, "get" sends GETs. The first second is warm-up; with `count`, there is none and
// the run ends once `count` requests were sent (a burst), whatever `seconds` says. Prints one JSON line:
// { requests, errors, seconds, rps, median_ms, p99_ms, first_error? }.
import { readFileSync } from "node:fs";

interface Spec {
  url: string;
  urls?: string[];
  mode: "send" | "get";
  seconds: number;
  concurrency: number;
  auth: string[];
  requests: { path: string; form?: Record<string, string> }[];
  count?: number;
}

const spec = JSON.parse(readFileSync(process.argv[2]!, "utf8")) as Spec;
let counting = false;
let stopped = false;
let requests = 0;
let errors = 0;
let firstError: string | undefined;
const latencies: number[] = [];
let next = 0;

async function loop(i: number) {
  const authorization = spec.auth[i % spec.auth.length]!;
  const url = spec.urls ? spec.urls[i % spec.urls.length]! : spec.url;
  while (!stopped && (spec.count === undefined || next < spec.count)) {
    const r = spec.requests[next++ % spec.requests.length]!;
    const t0 = performance.now();
    try {
      const res =
        spec.mode === "send"
          ? await fetch(url + r.path, {
              method: "POST",
              headers: { Authorization: authorization, "Content-Type": "application/x-www-form-urlencoded" },
              body: new URLSearchParams(r.form),
              keepalive: true,
            })
          : await fetch(url + r.path, { headers: { Authorization: authorization }, keepalive: true });
      const body = await res.text();
      const ms = performance.now() - t0;
      if (!counting || stopped) continue;
      if (res.ok) {
        requests++;
        latencies.push(ms);
      } else {
        errors++;
        firstError ??= body.slice(0, 300);
      }
    } catch (e) {
      if (counting && !stopped) {
        errors++;
        firstError ??= String(e);
      }
    }
  }
}

const loops = Array.from({ length: spec.concurrency }, (_, i) => loop(i));
let started = performance.now();
if (spec.count === undefined) {
  await Bun.sleep(1000);
  counting = true;
  started = performance.now();
  await Bun.sleep(spec.seconds * 1000);
  stopped = true;
} else counting = true;
await Promise.all(loops);
const elapsed = (performance.now() - started) / 1000;
latencies.sort((a, b) => a - b);
const pct = (p: number) => (latencies.length ? latencies[Math.min(latencies.length - 1, Math.floor(latencies.length * p))]! : 0);
console.log(JSON.stringify({ requests, errors, seconds: elapsed, rps: requests / elapsed, median_ms: pct(0.5), p99_ms: pct(0.99), first_error: firstError }));

export {}; // a module, for top-level await
