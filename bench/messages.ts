// Messaging on the compiled server with load from a separate process (bench/lib/messages-load.ts):
//  - a generator fills a database with BENCH_MESSAGES (default 1,000,000) channel messages over 100
//    channels, 2,000 topics and 200 users (rows written directly with bun:sqlite in big transactions,
//    after users and channels are made through confab's own actions);
//  - sends to a 100-subscriber channel from 16 concurrent senders (each subscriber holds an event queue);
//  - GET /messages narrowed to a channel and topic, anchor=newest, num_before=100: median and p99;
//  - a search narrow: median;
//  - database size per million messages.
// Standalone: `bun bench/messages.ts` (builds dist/confab if missing); or through `npm run bench -- messages`.
import { sqliteOf } from "../src/db/client";
import { existsSync, mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { bootstrapFirstRealm } from "../src/actions/realms";
import { createChannel } from "../src/actions/subscriptions";
import { createUser } from "../src/actions/users";
import { createApp } from "../src/app";
import { loadConfig } from "../src/config";
import { createLogger } from "../src/lib/log";
import { rssMb, serveExe, stop } from "./lib/proc";
import { basic, type Cred } from "./lib/seed";
import type { BenchContext, BenchResult } from "./lib/types";

const MESSAGES = Number(process.env.BENCH_MESSAGES ?? 1_000_000);
const USERS = 200;
const CHANNELS = 100;
const TOPICS_PER_CHANNEL = 20; // 2,000 topics
const SEND_SUBSCRIBERS = 100;
const SENDERS = 16;
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const LOAD = join(import.meta.dir, "lib", "messages-load.ts");

/** A small deterministic PRNG (mulberry32), so every run generates the same database. */
function rng(seed: number) {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** 4,000 made-up words plus common English ones: a search vocabulary with a realistic spread. */
function vocabulary(rand: () => number): string[] {
  const c = "bcdfghjklmnprstvwz";
  const v = "aeiou";
  const words = new Set<string>();
  while (words.size < 4000) {
    let w = "";
    for (let s = 0, n = 2 + Math.floor(rand() * 2); s < n; s++) w += c[Math.floor(rand() * c.length)]! + v[Math.floor(rand() * v.length)]!;
    words.add(w);
  }
  return [...words, ..."the a to and of in is it you that we for on with this be have are not at will can just so what about".split(" ")];
}

interface Generated {
  dataDir: string;
  owner: Cred;
  users: Cred[];
  channels: { id: number; recipientId: number; name: string; subscribers: number[] }[];
  topics: string[];
  words: string[];
  seconds: number;
  userMessageRows: number;
}

/** Channel c's subscriber count: channel 0 has 100 (the send target), the rest fall off like real organizations (about 30 on average). */
const channelSize = (c: number, userCount: number) => (c === 0 ? SEND_SUBSCRIBERS : Math.min(userCount, Math.round(5 + 100 * Math.exp(-c / 25))));

/** The database of this benchmark; bench/web.ts asks for more users (its realm has 1,000). */
export async function generate(dataDir: string, log: (l: string) => void, o = { users: USERS, messages: MESSAGES }): Promise<Generated> {
  const t0 = performance.now();
  const rand = rng(42);
  const app = await createApp(loadConfig({ dataDir }, {}), { batching: false, log: createLogger("error") });
  try {
    const first = (await bootstrapFirstRealm(app))!;
    await first.setPassword(); // the owner's password (argon2id), before the app closes
    const realm = first.realm;
    const users: Cred[] = [];
    for (let i = 0; i < o.users; i++) {
      const u = await createUser(app, realm, { email: `user${i}@bench.test`, fullName: `Bench User ${i}` });
      users.push({ id: u.id, email: u.email, key: u.apiKey });
    }
    const owner = { id: first.owner.id, email: first.owner.email, key: first.owner.apiKey };
    const channels: Generated["channels"] = [];
    for (let c = 0; c < CHANNELS; c++) {
      // Each channel's subscribers: a window of the user list starting at a channel-specific offset.
      const size = channelSize(c, o.users);
      const start = (c * 37) % o.users;
      const subs = Array.from({ length: size }, (_, i) => users[(start + i) % o.users]!.id);
      const { id } = await createChannel(app, realm, first.owner, {
        name: `bench-${c}`,
        description: `Benchmark channel ${c}`,
        subscribers: subs,
        announce: false,
        invite_only: false,
        is_web_public: false,
        is_default_stream: false,
        send_new_subscription_messages: false,
      });
      const recipientId = sqliteOf(app.db).query<{ r: number }, [number]>("SELECT recipient_id AS r FROM channels WHERE id = ?").get(id)!.r;
      channels.push({ id, recipientId, name: `bench-${c}`, subscribers: subs });
    }
    const topics = Array.from({ length: TOPICS_PER_CHANNEL }, (_, t) => `topic ${t}`);
    const words = vocabulary(rand);
    log(`users and channels: ${Math.round(performance.now() - t0)} ms; writing ${o.messages.toLocaleString()} messages`);

    const s = sqliteOf(app.db);
    const now = Math.floor(Date.now() / 1000);
    const startTime = now - 365 * 24 * 3600;
    const base = s.query<{ id: number }, []>("SELECT COALESCE(MAX(id), 0) AS id FROM messages").get()!.id;
    const insertMessage = s.prepare(
      "INSERT INTO messages (id, realm_id, sender_id, recipient_id, topic, content, rendered_content, date_sent, client) VALUES (?,?,?,?,?,?,?,?,'website')",
    );
    const insertFts = s.prepare("INSERT INTO messages_fts (rowid, topic, body) VALUES (?,?,?)");
    const UM_CHUNK = 200;
    const umStatements = new Map<number, ReturnType<typeof s.prepare>>();
    const umInsert = (n: number) => {
      let st = umStatements.get(n);
      if (!st) umStatements.set(n, (st = s.prepare(`INSERT INTO user_messages (user_id, message_id, flags) VALUES ${Array(n).fill("(?,?,?)").join(",")}`)));
      return st;
    };
    // Messages are spread over channels in proportion to their size (busy channels are the big ones).
    const weights = channels.map((ch) => ch.subscribers.length);
    const total = weights.reduce((a, b) => a + b, 0);
    const cumulative: number[] = [];
    weights.reduce((acc, w, i) => (cumulative[i] = acc + w / total), 0);
    const unreadFrom = o.messages - 10_000;
    const BATCH = 20_000;
    let umRows = 0;
    for (let done = 0; done < o.messages; done += BATCH) {
      s.transaction(() => {
        for (let i = done; i < Math.min(o.messages, done + BATCH); i++) {
          const id = base + 1 + i;
          const r = rand();
          const ch =
            channels[
              Math.max(
                0,
                cumulative.findIndex((x) => r <= x),
              )
            ]!;
          const sender = ch.subscribers[Math.floor(rand() * ch.subscribers.length)]!;
          const topic = topics[Math.floor(rand() * TOPICS_PER_CHANNEL)]!;
          const n = 6 + Math.floor(rand() * 18);
          let text = "";
          for (let w = 0; w < n; w++) text += (w ? " " : "") + words[Math.floor(rand() * rand() * words.length)]!;
          insertMessage.run(id, 1, sender, ch.recipientId, topic, text, `<p>${text}</p>`, startTime + Math.floor(((now - 3600 - startTime) * i) / o.messages));
          insertFts.run(id, topic, text);
          const flagsOf = (u: number) => (u === sender || i < unreadFrom ? 1 : 0);
          for (let k = 0; k < ch.subscribers.length; k += UM_CHUNK) {
            const part = ch.subscribers.slice(k, k + UM_CHUNK);
            const params: number[] = [];
            for (const u of part) params.push(u, id, flagsOf(u));
            umInsert(part.length).run(...params);
            umRows += part.length;
          }
        }
      })();
      if ((done / BATCH) % 10 === 0)
        log(`  ${(done + BATCH).toLocaleString()} messages, ${umRows.toLocaleString()} user_messages rows, ${Math.round((performance.now() - t0) / 1000)} s`);
    }
    // Every recipient's row is written above, as if each subscriber had read since: nothing is pending.
    s.run("UPDATE subscriptions SET delivered_through = (SELECT MAX(id) FROM messages)");
    s.run("PRAGMA wal_checkpoint(TRUNCATE)");
    return { dataDir, owner, users, channels, topics, words, seconds: (performance.now() - t0) / 1000, userMessageRows: umRows };
  } finally {
    app.close();
  }
}

async function load(
  ctx: BenchContext,
  spec: object,
): Promise<{ requests: number; errors: number; rps: number; median_ms: number; p99_ms: number; first_error?: string }> {
  const file = join(ctx.tmp, `load-${Date.now()}.json`);
  await Bun.write(file, JSON.stringify(spec));
  const proc = Bun.spawn([process.execPath, LOAD, file], { env: { ...process.env, BUN_CONFIG_MAX_HTTP_REQUESTS: "512" }, stdout: "pipe", stderr: "inherit" });
  const out = await new Response(proc.stdout).text();
  if ((await proc.exited) !== 0) throw new Error(`load generator failed: ${out}`);
  return JSON.parse(out);
}

const dbBytes = (dir: string) =>
  ["confab.db", "confab.db-wal"]
    .map((f) => join(dir, f))
    .filter(existsSync)
    .reduce((a, f) => a + statSync(f).size, 0);
const round = (x: number, digits = 1) => Math.round(x * 10 ** digits) / 10 ** digits;

export async function run(ctx: BenchContext): Promise<BenchResult> {
  const dataDir = join(ctx.tmp, "data");
  ctx.log(`generating ${MESSAGES.toLocaleString()} messages, ${CHANNELS} channels, ${CHANNELS * TOPICS_PER_CHANNEL} topics, ${USERS} users`);
  const g = await generate(dataDir, ctx.log);
  const sizeBytes = dbBytes(dataDir);
  ctx.log(`generated in ${round(g.seconds)} s; database ${round(sizeBytes / 2 ** 20)} MB`);

  const { proc, url } = await serveExe(ctx.exe, dataDir, `${dataDir}.log`);
  try {
    const target = g.channels[0]!;
    const byId = new Map(g.users.map((u) => [u.id, u]));
    const subscribers = target.subscribers.map((id) => byId.get(id)!);
    // Every subscriber of the target channel holds an event queue, as connected clients would.
    for (const u of subscribers)
      await fetch(`${url}/api/v1/register`, {
        method: "POST",
        headers: { Authorization: basic(u), "Content-Type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({ event_types: '["message"]', fetch_event_types: '["message"]' }),
      });

    ctx.log(`sends: ${SENDERS} senders to a ${target.subscribers.length}-subscriber channel, ${SECONDS} s`);
    const contents = Array.from({ length: 64 }, (_, i) => `Benchmark message ${i}: ${g.words.slice(i * 7, i * 7 + 12).join(" ")} with **bold** and \`code\``);
    const send = await load(ctx, {
      url,
      mode: "send",
      seconds: SECONDS,
      concurrency: SENDERS,
      auth: subscribers.slice(0, SENDERS).map(basic),
      requests: contents.map((content, i) => ({ path: "/api/v1/messages", form: { type: "stream", to: String(target.id), topic: `send ${i % 8}`, content } })),
    });
    ctx.log(`  ${Math.round(send.rps)} messages/s, ${send.errors} errors${send.first_error ? ` (${send.first_error})` : ""}`);

    const reader = basic(g.users[0]!);
    const rand = rng(7);
    const topicNarrows = Array.from({ length: 500 }, () => {
      const c = g.channels[Math.floor(rand() * g.channels.length)]!;
      const narrow = JSON.stringify([
        { operator: "channel", operand: c.id },
        { operator: "topic", operand: g.topics[Math.floor(rand() * g.topics.length)] },
      ]);
      return { path: `/api/v1/messages?${new URLSearchParams({ anchor: "newest", num_before: "100", num_after: "0", narrow })}` };
    });
    ctx.log(`GET /messages channel+topic, anchor=newest, num_before=100, one client, ${SECONDS} s`);
    const topicFetch = await load(ctx, { url, mode: "get", seconds: SECONDS, concurrency: 1, auth: [reader], requests: topicNarrows });
    ctx.log(`  median ${round(topicFetch.median_ms, 2)} ms, p99 ${round(topicFetch.p99_ms, 2)} ms`);

    const searches = Array.from({ length: 200 }, () => {
      const word = g.words[Math.floor(rand() * 4000)]!;
      const narrow = JSON.stringify([{ operator: "search", operand: word }]);
      return { path: `/api/v1/messages?${new URLSearchParams({ anchor: "newest", num_before: "100", num_after: "0", narrow })}` };
    });
    ctx.log(`GET /messages search narrow, anchor=newest, num_before=100, one client, ${SECONDS} s`);
    const search = await load(ctx, { url, mode: "get", seconds: SECONDS, concurrency: 1, auth: [reader], requests: searches });
    ctx.log(`  median ${round(search.median_ms, 2)} ms, p99 ${round(search.p99_ms, 2)} ms`);
    const rss = rssMb(proc.pid);

    const perMillion = sizeBytes / (MESSAGES / 1_000_000) / 2 ** 20;
    return {
      figures: {
        messages: MESSAGES,
        channels: CHANNELS,
        topics: CHANNELS * TOPICS_PER_CHANNEL,
        users: USERS,
        user_messages_rows: g.userMessageRows,
        user_messages_rows_per_message: round(g.userMessageRows / MESSAGES, 1),
        generate_seconds: round(g.seconds),
        database_mb: round(sizeBytes / 2 ** 20),
        database_mb_per_million_messages: round(perMillion),
        send_messages_per_second: Math.round(send.rps),
        send_errors: send.errors,
        send_median_ms: round(send.median_ms, 2),
        send_p99_ms: round(send.p99_ms, 2),
        send_subscribers: target.subscribers.length,
        send_senders: SENDERS,
        topic_fetch_median_ms: round(topicFetch.median_ms, 2),
        topic_fetch_p99_ms: round(topicFetch.p99_ms, 2),
        topic_fetch_requests: topicFetch.requests,
        topic_fetch_errors: topicFetch.errors,
        search_median_ms: round(search.median_ms, 2),
        search_p99_ms: round(search.p99_ms, 2),
        search_requests: search.requests,
        search_errors: search.errors,
        server_rss_mb: round(rss),
        load_seconds: SECONDS,
      },
      targets: [
        {
          label: `sends/s, ${SENDERS} senders, ${target.subscribers.length}-subscriber channel`,
          value: Math.round(send.rps),
          unit: "msg/s",
          op: ">=",
          limit: 3000,
        },
        { label: "channel+topic fetch, 100 messages (median)", value: round(topicFetch.median_ms, 2), unit: "ms", op: "<", limit: 5.01 },
        { label: "channel+topic fetch, 100 messages (p99)", value: round(topicFetch.p99_ms, 2), unit: "ms", op: "<", limit: 20.01 },
        { label: "search narrow (median)", value: round(search.median_ms, 2), unit: "ms", op: "<", limit: 50.01 },
        { label: "errors during the runs", value: send.errors + topicFetch.errors + search.errors, unit: "", op: "<", limit: 1 },
      ],
    };
  } finally {
    await stop(proc);
  }
}

// Standalone: `bun bench/messages.ts` prints the results (building the executable if it is missing).
if (import.meta.main) {
  const root = join(import.meta.dir, "..");
  const exe = join(root, "dist", "confab");
  if (!existsSync(exe) || process.argv.includes("--build")) {
    const b = Bun.spawnSync(["npm", "run", "--silent", "build"], { cwd: root, stdout: "inherit", stderr: "inherit" });
    if (b.exitCode !== 0) process.exit(b.exitCode ?? 1);
  }
  const tmp = mkdtempSync(join(tmpdir(), "confab-bench-messages-"));
  try {
    const r = await run({ exe, tmp, log: (l) => console.log(l) });
    console.log(JSON.stringify(r, null, 2));
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}
