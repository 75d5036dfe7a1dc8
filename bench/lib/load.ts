// The load generator, run as its own process so it never shares an event loop with the server it
// measures: `bun bench/lib/load.ts URL SECONDS CONCURRENCY [AUTHORIZATION]`. Each of CONCURRENCY
// loops sends one keep-alive GET at a time; the first second is warm-up and is not counted.
// Prints one JSON line: {requests, errors, seconds, rps, sent} (sent: every request, warm-up included).
const [url, secondsArg = "5", concurrencyArg = "32", authorization] = process.argv.slice(2);
if (!url) throw new Error("usage: load.ts URL SECONDS CONCURRENCY [AUTHORIZATION]");
const seconds = Number(secondsArg);
const concurrency = Number(concurrencyArg);
const headers: Record<string, string> = authorization ? { Authorization: authorization } : {};

let counting = false;
let stopped = false;
let requests = 0;
let errors = 0;
let sent = 0;

async function loop() {
  while (!stopped) {
    try {
      const res = await fetch(url!, { headers, keepalive: true });
      await res.arrayBuffer();
      sent++;
      if (counting && !stopped) res.ok ? requests++ : errors++;
    } catch {
      if (counting && !stopped) errors++;
    }
  }
}

const loops = Array.from({ length: concurrency }, loop);
await Bun.sleep(1000);
counting = true;
const started = performance.now();
await Bun.sleep(seconds * 1000);
stopped = true;
const elapsed = (performance.now() - started) / 1000;
await Promise.all(loops);
console.log(JSON.stringify({ requests, errors, seconds: elapsed, rps: requests / elapsed, sent }));

export {}; // a module, for top-level await
