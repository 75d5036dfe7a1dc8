// The web client, in headless Chromium (@sparticuz/chromium via playwright-core) against the compiled
// server:
//  - bundle: gzip size of the JavaScript the first screen loads (index.html's module scripts and what
//    they import statically; lazy chunks are listed apart), and of its CSS;
//  - first messages painted: navigation → first message row painted, signed in, loopback, in a realm
//    of 1,000 users and 100 channels with BENCH_MESSAGES (default 1,000,000) messages (median of 10 loads);
//  - a 10,000-message topic: opened at its newest message, then scrolled up through 1,000 messages
//    (older ones load as it goes): the longest main-thread task (PerformanceObserver "longtask"; its
//    CPU time from a trace beside it) and the tab's JS heap afterwards;
//  - live: 200 messages sent from one browser (POST /json/messages from the page), each timed until it
//    is painted in another browser viewing the topic: median and p99.
// Standalone: `bun bench/web.ts` (builds dist/confab if missing); or `npm run bench -- web`.
// BENCH_WEB_DATA=<dir> keeps the generated organization for the next run.
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { BrowserContext, Page } from "playwright-core";
import { setPassword } from "../src/actions/users";
import { createApp } from "../src/app";
import { loadConfig } from "../src/config";
import { buildWebClient, listFiles } from "../src/http/web-build";
import { createLogger } from "../src/lib/log";
import { findUserById } from "../src/store/users";
import { launchChromium } from "../test/e2e/harness";
import { generate } from "./messages";
import { median, serveExe, stop } from "./lib/proc";
import { basic } from "./lib/seed";
import type { BenchContext, BenchResult } from "./lib/types";

// Code passed to page.evaluate runs in the browser; the bench's own types have no DOM.
declare const document: any;
declare const window: any;

const MESSAGES = Number(process.env.BENCH_MESSAGES ?? 1_000_000);
const USERS = 1000;
const LONG_TOPIC = 10_000;
const SCROLL_THROUGH = 1_000;
const LOADS = 10;
const SENDS = 200;
const PASSWORD = "bench-password";

const round = (x: number, digits = 1) => Math.round(x * 10 ** digits) / 10 ** digits;
const p99 = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.ceil(xs.length * 0.99) - 1)]!;
const kb = (bytes: number) => round(bytes / 1024);

/** The files index.html loads before anything runs, following static imports between chunks. */
function firstScreen(dir: string) {
  const html = readFileSync(join(dir, "index.html"), "utf8");
  const css = [...html.matchAll(/<link[^>]+href="\.?\/?([^"]+\.css)"/g)].map((m) => m[1]!);
  const js = new Set<string>();
  const visit = (f: string) => {
    if (js.has(f) || !existsSync(join(dir, f))) return;
    js.add(f);
    const code = readFileSync(join(dir, f), "utf8");
    // Static imports only (`import ... from "./x.js"`, `import "./x.js"`); `import("./x.js")` is lazy.
    for (const m of code.matchAll(/(?:^|[;}\s])import\s*(?:[\w*{}\s,$]+from\s*)?["']\.\/([^"']+\.js)["']/g)) visit(m[1]!);
  };
  for (const m of html.matchAll(/<script[^>]+src="\.?\/?([^"]+\.js)"/g)) visit(m[1]!);
  const gz = (f: string) => Bun.gzipSync(readFileSync(join(dir, f))).length;
  const all = listFiles(dir);
  const lazy = all.filter((f) => f.endsWith(".js") && !js.has(f));
  return {
    js_gzip_kb: kb([...js].reduce((a, f) => a + gz(f), 0)),
    css_gzip_kb: kb(css.reduce((a, f) => a + gz(f), 0)),
    lazy_js_gzip_kb: kb(lazy.reduce((a, f) => a + gz(f), 0)),
    first_screen_files: [...js, ...css].join(" "),
    total_files: all.length,
  };
}

/** Runs in every page before its own scripts: first message painted, long tasks. */
const INSTRUMENT = `
  window.__longTasks = [];
  window.__firstMessage = null;
  try {
    new PerformanceObserver((l) => l.getEntries().forEach((e) => window.__longTasks.push(e.duration))).observe({ type: "longtask", buffered: true });
  } catch {}
  new MutationObserver(() => {
    if (window.__firstMessage === null && document.querySelector('[data-testid="message"]'))
      requestAnimationFrame(() => setTimeout(() => (window.__firstMessage ??= performance.now())));
  }).observe(document, { subtree: true, childList: true });
`;

/** A signed-in browser context for one user (the session cookie set as the sign-in would). */
async function signedInContext(browser: Awaited<ReturnType<typeof launchChromium>>, url: string, email: string): Promise<BrowserContext> {
  const res = await fetch(`${url}/accounts/login`, { method: "POST", body: new URLSearchParams({ username: email, password: PASSWORD }) });
  if (res.status !== 200) throw new Error(`sign-in failed: ${res.status} ${await res.text()}`);
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const host = new URL(url).hostname;
  await context.addCookies(
    res.headers.getSetCookie().map((line) => {
      const [pair] = line.split(";");
      const i = pair!.indexOf("=");
      return {
        name: pair!.slice(0, i),
        value: pair!.slice(i + 1),
        domain: host,
        path: "/",
        httpOnly: pair!.startsWith("confab_session"),
        sameSite: "Lax" as const,
      };
    }),
  );
  await context.addInitScript(INSTRUMENT);
  return context;
}

const topicHash = (c: { id: number; name: string }, topic: string) => `#narrow/channel/${c.id}-${c.name}/topic/${encodeURIComponent(topic)}`;

/** A 10,000-message topic in the first channel, sent through the API by 16 of its subscribers. */
async function sendLongTopic(url: string, g: Awaited<ReturnType<typeof generate>>, channelId: number) {
  const senders = g.channels[0]!.subscribers.slice(1, 17).map((id) => g.users.find((u) => u.id === id)!);
  let next = 0;
  await Promise.all(
    senders.map(async (u) => {
      for (let i = next++; i < LONG_TOPIC; i = next++)
        await fetch(`${url}/api/v1/messages`, {
          method: "POST",
          headers: { Authorization: basic(u) },
          body: new URLSearchParams({
            type: "stream",
            to: String(channelId),
            topic: "long topic",
            content: `Long topic message ${i}: ${g.words.slice(i % 3000, (i % 3000) + 12).join(" ")}`,
          }),
        });
    }),
  );
}

/**
 * The CPU time of the longest task on the page's main thread, from a Chromium trace. Wall-clock long
 * tasks include the time the renderer waited for a core; on a busy machine this tells the two apart.
 */
function longestTaskCpu(trace: { traceEvents: { name: string; ph: string; pid: number; tid: number; tdur?: number }[] }): number {
  const main = trace.traceEvents.find((e) => e.name === "EventDispatch"); // only a renderer's main thread dispatches DOM events
  if (!main) return 0;
  let longest = 0;
  for (const e of trace.traceEvents)
    if (e.name === "RunTask" && e.ph === "X" && e.pid === main.pid && e.tid === main.tid && e.tdur) longest = Math.max(longest, e.tdur / 1000);
  return longest;
}

async function waitForMessages(page: Page) {
  await page.waitForSelector('[data-testid="message"]', { timeout: 60_000 });
}

export async function run(ctx: BenchContext): Promise<BenchResult> {
  ctx.log("bundle: building the web client");
  const webOut = join(ctx.tmp, "web");
  await buildWebClient(webOut);
  const bundle = firstScreen(webOut);
  ctx.log(`  first screen ${bundle.js_gzip_kb} KB JS + ${bundle.css_gzip_kb} KB CSS (gzip); lazy ${bundle.lazy_js_gzip_kb} KB`);

  // BENCH_WEB_DATA=<dir> keeps the generated organization there and reuses it on the next run (for
  // working on the client: generating 1,000,000 messages takes minutes).
  const kept = process.env.BENCH_WEB_DATA;
  const dataDir = kept ?? join(ctx.tmp, "data");
  const described = join(dataDir, "bench-web.json");
  let g: Awaited<ReturnType<typeof generate>>;
  const reused = !!kept && existsSync(described);
  if (reused) {
    g = JSON.parse(readFileSync(described, "utf8"));
    ctx.log(`reusing the organization in ${dataDir}`);
  } else {
    ctx.log(`generating ${MESSAGES.toLocaleString()} messages, 100 channels, ${USERS} users`);
    g = await generate(dataDir, ctx.log, { users: USERS, messages: MESSAGES });
  }
  const channel = { id: g.channels[0]!.id, name: g.channels[0]!.name }; // its first 100 users are subscribed
  const [reader, sender] = g.users;
  {
    const app = await createApp(loadConfig({ dataDir }, {}), { batching: false, log: createLogger("error") });
    for (const u of [reader!, sender!]) await setPassword(app, (await findUserById(app.db, u.id))!, PASSWORD);
    app.close();
  }

  const { proc, url } = await serveExe(ctx.exe, dataDir, `${dataDir}.log`);
  const browser = await launchChromium();
  try {
    if (!reused) await sendLongTopic(url, g, channel.id);
    if (kept && !reused) writeFileSync(described, JSON.stringify(g));
    await fetch(`${url}/api/v1/mark_all_as_read`, { method: "POST", headers: { Authorization: basic(reader!) } });

    // First messages painted.
    const readerContext = await signedInContext(browser, url, reader!.email);
    const loads: number[] = [];
    for (let i = 0; i <= LOADS; i++) {
      const page = await readerContext.newPage();
      await page.goto(`${url}/${topicHash(channel, "topic 0")}`);
      await waitForMessages(page);
      await page.waitForFunction(() => (window as any).__firstMessage !== null);
      const ms = await page.evaluate(() => (window as any).__firstMessage as number);
      if (i > 0) loads.push(ms); // the first load warms the server's caches and the browser's
      await page.close();
    }
    ctx.log(`  first messages painted: median ${round(median(loads))} ms over ${LOADS} loads`);

    // Scrolling a long topic.
    const page = await readerContext.newPage();
    await page.goto(`${url}/${topicHash(channel, "long topic")}`);
    await waitForMessages(page);
    await page.waitForTimeout(1000);
    await page.evaluate(() => ((window as any).__longTasks = []));
    await browser.startTracing(page, { categories: ["devtools.timeline", "disabled-by-default-devtools.timeline"] });
    const list = page.getByTestId("message-list");
    const newest = await page.evaluate(() =>
      Math.max(...[...document.querySelectorAll("[data-message-id]")].map((e) => Number(e.getAttribute("data-message-id")))),
    );
    const idsBelow = async () =>
      page.evaluate(() => Math.min(...[...document.querySelectorAll("[data-message-id]")].map((e) => Number(e.getAttribute("data-message-id")))));
    const t0 = performance.now();
    let oldestSeen = newest;
    let steps = 0;
    // Message ids of the topic are nearly consecutive (sent in a burst), so ids tell how far we went.
    while (newest - oldestSeen < SCROLL_THROUGH && performance.now() - t0 < 120_000) {
      await list.hover();
      await page.mouse.wheel(0, -600);
      await page.waitForTimeout(30);
      oldestSeen = Math.min(oldestSeen, await idsBelow());
      steps++;
    }
    const scrollSeconds = (performance.now() - t0) / 1000;
    const longTasks = (await page.evaluate(() => (window as any).__longTasks)) as number[];
    const longestCpu = longestTaskCpu(JSON.parse((await browser.stopTracing()).toString()));
    const heapMb = (await page.evaluate(() => (performance as any).memory?.usedJSHeapSize ?? 0)) / 2 ** 20;
    ctx.log(
      `  scrolled ${newest - oldestSeen} messages in ${round(scrollSeconds)} s: ${longTasks.length} long tasks, longest ${round(Math.max(0, ...longTasks))} ms (${round(longestCpu)} ms of CPU); JS heap ${round(heapMb)} MB`,
    );
    await page.close();

    // Live delivery between two browsers.
    const latencies: number[] = [];
    let liveError = "";
    try {
      const receiver = await readerContext.newPage();
      receiver.on("crash", () => ctx.log("  the receiving page crashed"));
      await receiver.goto(`${url}/${topicHash(channel, "live")}`);
      await receiver.getByTestId("message-list").waitFor({ timeout: 60_000 });
      const senderContext = await signedInContext(browser, url, sender!.email);
      const from = await senderContext.newPage();
      await from.goto(`${url}/${topicHash(channel, "live")}`);
      await from.getByTestId("message-list").waitFor({ timeout: 60_000 });
      const sentAt: number[] = [];
      for (let i = 0; i < SENDS; i++) {
        sentAt.push(
          await from.evaluate(
            async ({ i, stream }) => {
              const csrf = document.cookie.match(/(?:^|; )csrftoken=([^;]*)/)?.[1] ?? "";
              const t = Date.now();
              await fetch("/json/messages", {
                method: "POST",
                headers: { "X-CSRFToken": csrf },
                body: new URLSearchParams({ type: "stream", to: String(stream), topic: "live", content: `live-${i}-end` }),
              });
              return t;
            },
            { i, stream: channel.id },
          ),
        );
        // Checked at every animation frame of the receiving tab: the time it first shows the text.
        const seen = await receiver.waitForFunction((needle) => (document.body.textContent.includes(needle) ? Date.now() : 0), `live-${i}-end`, {
          timeout: 10_000,
          polling: "raf",
        });
        latencies.push(((await seen.jsonValue()) as number) - sentAt[i]!);
      }
      ctx.log(`  live: median ${round(median(latencies))} ms, p99 ${round(p99(latencies))} ms over ${SENDS} sends`);
    } catch (e) {
      liveError = String((e as Error).message).split("\n")[0]!;
      ctx.log(`  live: failed after ${latencies.length} sends: ${liveError}`);
    }

    return {
      figures: {
        ...bundle,
        messages: MESSAGES,
        users: USERS,
        channels: g.channels.length,
        first_paint_median_ms: round(median(loads)),
        first_paint_max_ms: round(Math.max(...loads)),
        first_paint_loads: LOADS,
        long_topic_messages: LONG_TOPIC,
        scrolled_messages: newest - oldestSeen,
        scroll_steps: steps,
        scroll_seconds: round(scrollSeconds),
        long_tasks: longTasks.length,
        longest_task_ms: round(Math.max(0, ...longTasks)),
        longest_task_cpu_ms: round(longestCpu),
        tab_js_heap_mb: round(heapMb),
        live_sends: SENDS,
        live_median_ms: latencies.length ? round(median(latencies)) : "-",
        live_p99_ms: latencies.length ? round(p99(latencies)) : "-",
        ...(liveError ? { live_error: liveError } : {}),
      },
      targets: [
        { label: "first-screen JS (gzip)", value: bundle.js_gzip_kb, unit: "KB", op: "<", limit: 150.01 },
        {
          label: `navigation → first messages painted (median, ${MESSAGES.toLocaleString()} messages, ${USERS} users)`,
          value: round(median(loads)),
          unit: "ms",
          op: "<",
          limit: 500.01,
        },
        {
          label: `longest main-thread task scrolling ${SCROLL_THROUGH} messages of a ${LONG_TOPIC.toLocaleString()}-message topic`,
          value: round(Math.max(0, ...longTasks)),
          unit: "ms",
          op: "<",
          limit: 50.01,
        },
        { label: "tab JS heap after scrolling", value: round(heapMb), unit: "MB", op: "<", limit: 150.01 },
        {
          label: `message sent in one browser painted in the other (p99 of ${SENDS})`,
          value: latencies.length ? round(p99(latencies)) : Infinity,
          unit: "ms",
          op: "<",
          limit: 100.01,
        },
      ],
    };
  } finally {
    await browser.close();
    await stop(proc);
  }
}

if (import.meta.main) {
  const { mkdtempSync, rmSync } = await import("node:fs");
  const { tmpdir } = await import("node:os");
  const exe = join(import.meta.dir, "..", "dist", "confab");
  if (!existsSync(exe)) Bun.spawnSync(["npm", "run", "--silent", "build"], { stdout: "inherit", stderr: "inherit" });
  const tmp = mkdtempSync(join(tmpdir(), "confab-bench-web-"));
  try {
    console.log(JSON.stringify(await run({ exe, tmp, log: console.log }), null, 2));
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}
