// The extension layer on the compiled server:
//  - 50 plugins supervised at once, each a real process that answers (its bot calls the API) and stays:
//    the server's resident memory, its children not counted;
//  - 1,000 widget pushes a second across 100 scopes for a while, from a plugin's bot, with a client
//    listening: every push answered, and the ext_widget events it hears per scope at most one per two
//    seconds, the last one carrying the last version (nothing lost).
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { installPlugin } from "../src/actions/plugins";
import { bootstrapFirstRealm } from "../src/actions/realms";
import { createRepository, importIntoRepository } from "../src/actions/repositories";
import { createUser } from "../src/actions/users";
import { createApp } from "../src/app";
import { loadConfig } from "../src/config";
import { createLogger } from "../src/lib/log";
import { findUserById } from "../src/store/users";
import { rssMb, serveExe, stop } from "./lib/proc";
import { basic, type Cred } from "./lib/seed";
import type { BenchContext, BenchResult } from "./lib/types";

const PLUGINS = Number(process.env.BENCH_PLUGINS ?? 50);
const SCOPES = 100;
const RATE = Number(process.env.BENCH_WIDGET_RATE ?? 1000); // pushes per second
const SECONDS = Number(process.env.BENCH_WIDGET_SECONDS ?? 8);
const WINDOW_MS = 2000;
/** Events are timed on arrival at the listener: allowance for the HTTP answer's own delay under load. */
const ARRIVAL_JITTER_MS = 50;

const MANIFEST = {
  id: "bench-board",
  name: "Bench board",
  description: "Answers, then waits; its bot pushes the board.",
  version: "1.0.0",
  glyph: "📊",
  provides: { widgets: { board: { title: "Board", scope: "organization" } } },
  run: { command: ["sh", "run.sh"] },
};
/** Long-polls ext_widget events and prints each with its arrival time, until its standard input closes. */
const LISTENER = `
const [url, auth] = process.argv.slice(2);
const call = async (method, path, params) => {
  const q = new URLSearchParams(Object.entries(params).map(([k, v]) => [k, typeof v === "string" ? v : JSON.stringify(v)]));
  const res = await fetch(url + "/api/v1" + path + (method === "GET" ? "?" + q : ""), { method, headers: { Authorization: auth }, body: method === "GET" ? undefined : q });
  return res.json();
};
let open = true;
(async () => { for await (const _ of Bun.stdin.stream()) {} open = false; })();
const { queue_id } = await call("POST", "/register", { event_types: ["ext_widget"], fetch_event_types: [] });
let last = -1;
while (open) {
  const r = await call("GET", "/events", { queue_id, last_event_id: last });
  const at = performance.timeOrigin + performance.now();
  for (const e of r.events ?? []) {
    last = Math.max(last, e.id);
    if (e.type === "ext_widget") console.log(JSON.stringify({ item: e.item, version: e.version, at }));
  }
}
`;
const RUN_SH = 'curl -s -o /dev/null -u "$EXT_EMAIL:$EXT_API_KEY" "$EXT_API_URL/users/me"\nexec sleep 3600\n';

/** A data directory with an organization, a listener, and PLUGINS installs of a plugin kept by the server. */
async function seed(ctx: BenchContext, dataDir: string): Promise<{ owner: Cred; listener: Cred; bot: Cred }> {
  const app = await createApp(loadConfig({ dataDir }, {}), { batching: false, log: createLogger("error") });
  try {
    const first = (await bootstrapFirstRealm(app))!;
    await first.setPassword();
    const listener = await createUser(app, first.realm, { email: "listener@example.com", fullName: "Listener" });
    const src = join(ctx.tmp, "plugin");
    mkdirSync(src, { recursive: true });
    writeFileSync(join(src, "manifest.json"), JSON.stringify(MANIFEST));
    writeFileSync(join(src, "run.sh"), RUN_SH);
    const { repository } = await createRepository(app, first.realm, null, { name: "bench", description: "" });
    await importIntoRepository(app, first.realm, null, repository.id, src);
    let botId = 0;
    for (let i = 0; i < PLUGINS; i++) {
      const { plugin } = await installPlugin(app, first.realm, null, { source_kind: "local", source_repository_id: repository.id });
      botId ||= plugin.bot_user_id;
    }
    const bot = (await findUserById(app.db, botId))!;
    return {
      owner: { id: first.owner.id, email: first.owner.email, key: first.owner.apiKey },
      listener: { id: listener.id, email: listener.email, key: listener.apiKey },
      bot: { id: bot.id, email: bot.email, key: bot.apiKey },
    };
  } finally {
    app.close();
  }
}

async function api(url: string, c: Cred, method: string, path: string, params: Record<string, unknown> = {}) {
  const form = new URLSearchParams(Object.entries(params).map(([k, v]): [string, string] => [k, typeof v === "string" ? v : JSON.stringify(v)]));
  const res = await fetch(`${url}/api/v1${path}${method === "GET" ? `?${form}` : ""}`, {
    method,
    headers: { Authorization: basic(c), "Content-Type": "application/x-www-form-urlencoded" },
    body: method === "GET" ? undefined : form,
  });
  return (await res.json()) as any;
}

/** Direct children of a process, from /proc (their resident memory is theirs, not the server's). */
function childPids(pid: number): number[] {
  const out: number[] = [];
  for (const e of readdirSync("/proc").filter((x) => /^\d+$/.test(x))) {
    try {
      const stat = readFileSync(`/proc/${e}/stat`, "utf8");
      if (Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]) === pid) out.push(Number(e));
    } catch {}
  }
  return out;
}

export async function run(ctx: BenchContext): Promise<BenchResult> {
  const dataDir = join(ctx.tmp, "data");
  ctx.log(`seeding an organization and ${PLUGINS} plugin installs`);
  const { owner, listener, bot } = await seed(ctx, dataDir);
  const t0 = performance.now();
  const { proc: server, url } = await serveExe(ctx.exe, dataDir, join(ctx.tmp, "server.log"));
  try {
    ctx.log(`waiting for ${PLUGINS} plugins to run`);
    let runningCount = 0;
    while (performance.now() - t0 < 60_000) {
      const { plugins } = await api(url, owner, "GET", "/ext/plugins");
      runningCount = plugins.filter((p: any) => p.state === "running").length;
      if (runningCount === PLUGINS) break;
      await Bun.sleep(100);
    }
    const allRunningMs = performance.now() - t0;
    ctx.log(`  ${runningCount}/${PLUGINS} running after ${(allRunningMs / 1000).toFixed(1)} s`);
    await Bun.sleep(1500); // let the allocator return what starting them took
    const serverRss = rssMb(server.pid);
    const children = childPids(server.pid);
    const childrenRss = children.reduce((sum, pid) => {
      try {
        return sum + rssMb(pid);
      } catch {
        return sum;
      }
    }, 0);
    ctx.log(`  server RSS ${serverRss.toFixed(1)} MB; its ${children.length} children ${childrenRss.toFixed(1)} MB (not counted)`);

    ctx.log(`${RATE} widget pushes a second across ${SCOPES} scopes for ${SECONDS} s, one client listening`);
    // The listener is its own process, so the load this one generates does not delay what it hears.
    const listenerFile = join(ctx.tmp, "listener.ts");
    writeFileSync(listenerFile, LISTENER);
    const listenerProc = Bun.spawn([process.execPath, listenerFile, url, basic(listener)], { stdin: "pipe", stdout: "pipe", stderr: "inherit" });
    const listenerOut = new Response(listenerProc.stdout).text();
    await Bun.sleep(500); // registered and polling
    const total = RATE * SECONDS;
    const finalVersion = new Map<string, number>();
    const latencies: number[] = [];
    let failures = 0;
    let next = 0;
    const start = performance.now();
    const worker = async () => {
      for (;;) {
        const i = next++;
        if (i >= total) return;
        const due = start + (i * 1000) / RATE;
        const wait = due - performance.now();
        if (wait > 0) await Bun.sleep(wait);
        const item = `scope-${i % SCOPES}`;
        const sent = performance.now();
        const r = await api(url, bot, "POST", "/ext/widgets", { widget: "board", item, data: { n: i } });
        latencies.push(performance.now() - sent);
        if (r.result !== "success") failures++;
        else finalVersion.set(item, Math.max(finalVersion.get(item) ?? 0, r.version));
      }
    };
    await Promise.all(Array.from({ length: 64 }, worker));
    const pushSeconds = (performance.now() - start) / 1000;
    await Bun.sleep(WINDOW_MS + 1000); // the trailing events of the last window
    (listenerProc.stdin as import("bun").FileSink).end(); // it stops at its next event
    await api(url, bot, "POST", "/ext/widgets", { widget: "board", item: "end", data: { end: true } });
    const heard = new Map<string, { at: number; version: number }[]>();
    for (const line of (await listenerOut).split("\n").filter(Boolean)) {
      const e = JSON.parse(line) as { item: string; at: number; version: number };
      heard.set(e.item, [...(heard.get(e.item) ?? []), e]);
    }
    let minGap = Infinity;
    let maxInWindow = 0;
    let lost = 0;
    let events = 0;
    for (let s = 0; s < SCOPES; s++) {
      const item = `scope-${s}`;
      const list = heard.get(item) ?? [];
      events += list.length;
      for (let k = 1; k < list.length; k++) minGap = Math.min(minGap, list[k]!.at - list[k - 1]!.at);
      for (let k = 0; k < list.length; k++) {
        let n = 0;
        for (let j = k; j < list.length && list[j]!.at - list[k]!.at < WINDOW_MS - ARRIVAL_JITTER_MS; j++) n++;
        maxInWindow = Math.max(maxInWindow, n);
      }
      if (list.at(-1)?.version !== finalVersion.get(item)) lost++;
    }
    latencies.sort((a, b) => a - b);
    const p99 = latencies[Math.floor(latencies.length * 0.99)] ?? 0;
    const achieved = (total - failures) / pushSeconds;
    ctx.log(`  ${total - failures}/${total} pushes answered in ${pushSeconds.toFixed(1)} s (${Math.round(achieved)}/s), p99 ${p99.toFixed(1)} ms`);
    ctx.log(
      `  ${events} events heard; per scope at most ${maxInWindow} within ${(WINDOW_MS - ARRIVAL_JITTER_MS) / 1000} s, smallest gap ${minGap.toFixed(0)} ms; scopes whose last event missed the last version: ${lost}`,
    );
    return {
      figures: {
        plugins: PLUGINS,
        plugins_running: runningCount,
        all_running_after_s: round(allRunningMs / 1000),
        server_rss_mb: round(serverRss),
        children: children.length,
        children_rss_mb: round(childrenRss),
        widget_pushes: total,
        widget_pushes_answered: total - failures,
        widget_push_seconds: round(pushSeconds, 2),
        widget_push_rate_per_s: Math.round(achieved),
        widget_push_p99_ms: round(p99),
        widget_events_heard: events,
        widget_events_per_scope_max_in_window: maxInWindow,
        widget_event_min_gap_ms: Math.round(minGap),
        widget_scopes_missing_last_version: lost,
      },
      targets: [
        { label: `plugins running (of ${PLUGINS})`, value: runningCount, unit: "", op: ">=", limit: PLUGINS },
        { label: `server resident memory with ${PLUGINS} plugins, children not counted`, value: round(serverRss), unit: "MB", op: "<", limit: 150 },
        { label: "widget pushes handled per second (100 scopes)", value: Math.round(achieved), unit: "/s", op: ">=", limit: RATE * 0.95 },
        {
          label: `ext_widget events a listener hears per scope within 2 s (less ${ARRIVAL_JITTER_MS} ms for arrival jitter)`,
          value: maxInWindow,
          unit: "",
          op: "<",
          limit: 2,
        },
        { label: "scopes whose last event is not the last version", value: lost, unit: "", op: "<", limit: 1 },
      ],
    };
  } finally {
    await stop(server);
  }
}

const round = (x: number, digits = 1) => Math.round(x * 10 ** digits) / 10 ** digits;
