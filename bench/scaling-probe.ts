// Issue 21's design probes (docs/scaling.md cites them): what PostgreSQL, reached through Bun's built-in
// client, costs for the choices the design makes. The probes share one fresh, durable (fsync on)
// cluster from test/helpers/postgres.ts, and SQLite does the same work in the same run, so that the
// ratios hold even on a busy machine. `npm run bench -- --no-build scaling-probe` (no executable needed).
import { Database } from "bun:sqlite";
import { SQL } from "bun";
import { join } from "node:path";
import { writeFileSync } from "node:fs";
import { postgresMissing, startPostgres } from "../test/helpers/postgres";
import { startServer } from "../test/helpers/server";
import type { BenchContext, BenchResult } from "./lib/types";

type Figures = Record<string, number | string>;
const r1 = (n: number) => Math.round(n * 10) / 10;
const r2 = (n: number) => Math.round(n * 100) / 100;
const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))]!;
};
const perSecond = (n: number, ms: number) => Math.round((n * 1000) / ms);

export async function run(ctx: BenchContext): Promise<BenchResult> {
  if (postgresMissing("scaling-probe")) return { figures: { skipped: "no PostgreSQL binaries" }, targets: [] };
  const pg = await startPostgres({ durable: true, settings: { max_connections: "60" } });
  const figures: Figures = {};
  try {
    for (const [name, probe] of [
      ["inserts", inserts],
      ["notify", notify],
      ["lease", lease],
      ["actions", actions],
      ["statements", statements],
      ["search", search],
    ] as const) {
      ctx.log(`${name}…`);
      const got = await probe(pg.url, ctx);
      for (const [k, v] of Object.entries(got)) ctx.log(`  ${name}.${k} = ${v}`);
      Object.assign(figures, Object.fromEntries(Object.entries(got).map(([k, v]) => [`${name}_${k}`, v])));
    }
  } finally {
    await pg.stop();
  }
  return { figures, targets: [] };
}

const MESSAGE_TABLE = `CREATE TABLE msg (id bigserial PRIMARY KEY, realm_id int NOT NULL, recipient_id int NOT NULL,
  topic text NOT NULL, content text NOT NULL, date_sent bigint NOT NULL)`;
const row = (i: number) => ({
  realm_id: 1,
  recipient_id: i % 100,
  topic: `topic ${i % 37}`,
  content: `message number ${i} with some words in it`,
  date_sent: i,
});

/** Inserts/s: one autocommit statement at a time, pipelined autocommits, one transaction per batch; SQLite's group commit beside. */
async function inserts(url: string, ctx: BenchContext): Promise<Figures> {
  const sql = new SQL(url, { max: 1 });
  await sql.unsafe(MESSAGE_TABLE);
  const f: Figures = {};
  const one = (i: number) => {
    const r = row(i);
    return sql`INSERT INTO msg (realm_id, recipient_id, topic, content, date_sent) VALUES (${r.realm_id}, ${r.recipient_id}, ${r.topic}, ${r.content}, ${r.date_sent})`;
  };
  let t = performance.now();
  for (let i = 0; i < 2000; i++) await one(i);
  f.autocommit_per_s = perSecond(2000, performance.now() - t);

  t = performance.now();
  await Promise.all(Array.from({ length: 10_000 }, (_, i) => one(i)));
  f.pipelined_autocommit_per_s = perSecond(10_000, performance.now() - t);

  // The writer's way: one transaction per batch, its statements pipelined (as a group commit of 100 sends).
  for (const size of [100, 1000]) {
    t = performance.now();
    const batches = 20_000 / size;
    for (let b = 0; b < batches; b++)
      await sql.begin((tx) =>
        Promise.all(
          Array.from({ length: size }, (_, i) => {
            const r = row(b * size + i);
            return tx`INSERT INTO msg (realm_id, recipient_id, topic, content, date_sent) VALUES (${r.realm_id}, ${r.recipient_id}, ${r.topic}, ${r.content}, ${r.date_sent})`;
          }),
        ),
      );
    f[`tx_per_${size}_per_s`] = perSecond(20_000, performance.now() - t);
  }
  // Four writers (nodes) at once, each committing batches of 100: PostgreSQL flushes their commits together.
  const nodes = Array.from({ length: 4 }, () => new SQL(url, { max: 1 }));
  t = performance.now();
  await Promise.all(
    nodes.map((n, k) =>
      (async () => {
        for (let b = 0; b < 50; b++)
          await n.begin((tx) =>
            Promise.all(
              Array.from({ length: 100 }, (_, i) => {
                const r = row(k * 1e6 + b * 100 + i);
                return tx`INSERT INTO msg (realm_id, recipient_id, topic, content, date_sent) VALUES (${r.realm_id}, ${r.recipient_id}, ${r.topic}, ${r.content}, ${r.date_sent})`;
              }),
            ),
          );
      })(),
    ),
  );
  f.four_writers_tx_per_100_per_s = perSecond(20_000, performance.now() - t);
  // The same four, all sending into one realm: each batch first takes the realm's id lock (held to COMMIT),
  // so that message ids of a realm are assigned in commit order.
  t = performance.now();
  await Promise.all(
    nodes.map((n, k) =>
      (async () => {
        for (let b = 0; b < 50; b++)
          await n.begin(async (tx) => {
            await tx`SELECT pg_advisory_xact_lock(1)`;
            await Promise.all(
              Array.from({ length: 100 }, (_, i) => {
                const r = row(k * 1e6 + b * 100 + i);
                return tx`INSERT INTO msg (realm_id, recipient_id, topic, content, date_sent) VALUES (${r.realm_id}, ${r.recipient_id}, ${r.topic}, ${r.content}, ${r.date_sent})`;
              }),
            );
          });
      })(),
    ),
  );
  f.four_writers_one_realm_lock_tx_per_100_per_s = perSecond(20_000, performance.now() - t);
  await Promise.all([...nodes.map((n) => n.close()), sql.close()]);

  // SQLite, durable (synchronous=FULL), the same rows, one transaction per 100 (the writer's group commit).
  const lite = new Database(join(ctx.tmp, "probe.db"), { create: true });
  lite.run("PRAGMA journal_mode = WAL");
  lite.run("PRAGMA synchronous = FULL");
  lite.run(MESSAGE_TABLE.replace("bigserial PRIMARY KEY", "INTEGER PRIMARY KEY AUTOINCREMENT"));
  const ins = lite.query("INSERT INTO msg (realm_id, recipient_id, topic, content, date_sent) VALUES (?, ?, ?, ?, ?)");
  t = performance.now();
  for (let b = 0; b < 200; b++) {
    lite.run("BEGIN");
    for (let i = 0; i < 100; i++) {
      const r = row(b * 100 + i);
      ins.run(r.realm_id, r.recipient_id, r.topic, r.content, r.date_sent);
    }
    lite.run("COMMIT");
  }
  f.sqlite_tx_per_100_per_s = perSecond(20_000, performance.now() - t);
  lite.close();
  return f;
}

/**
 * LISTEN/NOTIFY: one node notifies at ~1,000/s, two other connections listen; the latency from the
 * NOTIFY's send to each listener. Then the payload limit, and the way events cross: the event row
 * written in the sending transaction, its id notified on COMMIT, each listener reading the row.
 */
async function notify(url: string): Promise<Figures> {
  const f: Figures = {};
  const sender = new SQL(url, { max: 1 });
  const listeners = [new SQL(url, { max: 1 }), new SQL(url, { max: 1 })];
  const sent = new Map<number, number>();
  const lat: number[][] = [[], []];
  const subs = await Promise.all(
    listeners.map((l, k) =>
      l.listen("probe", (payload) => {
        const at = sent.get(Number(payload));
        if (at !== undefined) lat[k]!.push(performance.now() - at);
      }),
    ),
  );
  const N = 3000;
  const start = performance.now();
  for (let i = 0; i < N; i++) {
    // Paced at 1 ms per notification: ~1,000/s.
    const due = start + i;
    const wait = due - performance.now();
    if (wait > 0) await Bun.sleep(wait);
    sent.set(i, performance.now());
    void sender.notify("probe", String(i));
  }
  while (lat.some((l) => l.length < N) && performance.now() - start < N + 10_000) await Bun.sleep(20);
  f.rate_per_s = perSecond(N, performance.now() - start);
  f.received = lat.map((l) => l.length).join(" ");
  f.latency_p50_ms = lat.map((l) => r2(pct(l, 50))).join(" ");
  f.latency_p99_ms = lat.map((l) => r2(pct(l, 99))).join(" ");
  f.latency_max_ms = lat.map((l) => r2(Math.max(...l))).join(" ");

  // The payload limit: PostgreSQL refuses a payload of 8,000 bytes or more.
  const fits = async (n: number) =>
    sender.notify("probe_size", "x".repeat(n)).then(
      () => true,
      () => false,
    );
  f.payload_7999_bytes = (await fits(7999)) ? "accepted" : "refused";
  f.payload_8000_bytes = (await fits(8000)) ? "accepted" : "refused";

  // An event row committed with its NOTIFY (the id only); the listener reads the row back.
  await sender`CREATE TABLE node_events (id bigserial PRIMARY KEY, body jsonb NOT NULL)`;
  const body = { type: "message", message: { id: 1, content: "y".repeat(2000) } };
  const read: number[] = [];
  const started = new Map<number, number>();
  let pending = Promise.resolve();
  const sub = await listeners[0]!.listen("events", (payload) => {
    const id = Number(payload);
    // Rows are read in order, one query per notification (a real node would read every id it heard at once).
    pending = pending.then(async () => {
      await listeners[1]!`SELECT body FROM node_events WHERE id = ${id}`;
      read.push(performance.now() - started.get(id)!);
    });
  });
  const M = 1000;
  const t0 = performance.now();
  for (let i = 0; i < M; i++) {
    const wait = t0 + i - performance.now();
    if (wait > 0) await Bun.sleep(wait);
    const at = performance.now();
    await sender.begin(async (tx) => {
      const [{ id }] = await tx`INSERT INTO node_events (body) VALUES (${body}) RETURNING id`;
      started.set(Number(id), at);
      await tx.notify("events", String(id));
    });
  }
  while (read.length < M && performance.now() - t0 < M + 10_000) await Bun.sleep(20);
  f.row_and_id_received = read.length;
  f.row_and_id_p50_ms = r2(pct(read, 50));
  f.row_and_id_p99_ms = r2(pct(read, 99));
  await Promise.all([...subs, sub].map((s) => s.unlisten()));
  await Promise.all([sender.close(), ...listeners.map((l) => l.close())]);
  return f;
}

/**
 * A lease as a session advisory lock: a child process (a node) holds it and is killed (SIGKILL, as a
 * crash); a second connection waiting in pg_advisory_lock gets it. The time from the kill to the takeover.
 */
async function lease(url: string, ctx: BenchContext): Promise<Figures> {
  const script = join(ctx.tmp, "lease-holder.ts");
  writeFileSync(
    script,
    `import { SQL } from "bun";
const sql = new SQL(process.argv[2], { max: 1 });
await sql\`SELECT pg_advisory_lock(21)\`;
console.log("held");
setInterval(() => {}, 1000);
`,
  );
  const times: number[] = [];
  for (let i = 0; i < 5; i++) {
    const holder = Bun.spawn([process.execPath, script, url], { stdout: "pipe", stderr: "inherit" });
    const reader = (holder.stdout as ReadableStream<Uint8Array>).getReader();
    await reader.read(); // "held"
    const waiter = new SQL(url, { max: 1 });
    const got = waiter`SELECT pg_advisory_lock(21)`.then(() => performance.now());
    await Bun.sleep(100); // the waiter is queued behind the holder
    const killedAt = performance.now();
    holder.kill("SIGKILL");
    times.push((await got) - killedAt);
    await waiter`SELECT pg_advisory_unlock(21)`;
    await waiter.close();
    await holder.exited;
  }
  return { takeover_ms: times.map(r1).join(" "), takeover_median_ms: r1(pct(times, 50)) };
}

/**
 * How an action (a few reads, then writes) runs. SQLite: synchronously, as today, against the same
 * action written with `await` on every statement and run one at a time behind a lock (what an
 * asynchronous store layer costs the SQLite path). PostgreSQL: the same action awaited statement by
 * statement, one node serialising its actions inside one batch transaction, against 16 concurrent
 * actions each in its own transaction on a pool.
 */
async function actions(url: string, ctx: BenchContext): Promise<Figures> {
  const f: Figures = {};
  const USERS = 1000;
  // --- SQLite: synchronous vs awaited.
  const lite = new Database(join(ctx.tmp, "actions.db"), { create: true });
  lite.run("PRAGMA journal_mode = WAL");
  lite.run("PRAGMA synchronous = NORMAL");
  lite.run("CREATE TABLE users (id INTEGER PRIMARY KEY, realm_id INT, name TEXT, role INT)");
  lite.run("CREATE TABLE subs (user_id INT, channel_id INT, PRIMARY KEY (user_id, channel_id)) WITHOUT ROWID");
  lite.run("CREATE TABLE msgs (id INTEGER PRIMARY KEY AUTOINCREMENT, sender_id INT, channel_id INT, content TEXT)");
  lite.run("CREATE TABLE ums (user_id INT, message_id INT, flags INT, PRIMARY KEY (user_id, message_id)) WITHOUT ROWID");
  lite.run("BEGIN");
  for (let i = 1; i <= USERS; i++) {
    lite.query("INSERT INTO users VALUES (?, 1, ?, 400)").run(i, `user ${i}`);
    lite.query("INSERT INTO subs VALUES (?, ?)").run(i, i % 10);
  }
  lite.run("COMMIT");
  const q = {
    user: lite.query("SELECT * FROM users WHERE id = ?"),
    sub: lite.query("SELECT 1 FROM subs WHERE user_id = ? AND channel_id = ?"),
    msg: lite.query("INSERT INTO msgs (sender_id, channel_id, content) VALUES (?, ?, ?) RETURNING id"),
    um: lite.query("INSERT INTO ums VALUES (?, ?, 1)"),
  };
  // A send-shaped action: 6 reads, 2 writes.
  const syncAction = (i: number) => {
    const u = (i % USERS) + 1;
    for (let k = 0; k < 5; k++) q.user.get(((u + k) % USERS) + 1);
    q.sub.get(u, u % 10);
    const { id } = q.msg.get(u, u % 10, `hello ${i}`) as { id: number };
    q.um.run(u, id);
  };
  const asyncAction = async (i: number) => {
    const u = (i % USERS) + 1;
    for (let k = 0; k < 5; k++) await q.user.get(((u + k) % USERS) + 1);
    await q.sub.get(u, u % 10);
    const { id } = (await q.msg.get(u, u % 10, `hello ${i}`)) as { id: number };
    await q.um.run(u, id);
  };
  const N = 40_000;
  const BATCH = 100;
  const timeSync = () => {
    const t = performance.now();
    for (let b = 0; b < N / BATCH; b++) {
      lite.run("BEGIN");
      for (let i = 0; i < BATCH; i++) {
        lite.run("SAVEPOINT a");
        syncAction(b * BATCH + i);
        lite.run("RELEASE a");
      }
      lite.run("COMMIT");
    }
    return ((performance.now() - t) * 1000) / N;
  };
  // Sixteen senders whose actions queue on one lock, as the writer would serialise awaited actions.
  const timeAsync = async () => {
    const t = performance.now();
    let lock = Promise.resolve();
    let inBatch = 0;
    const serial = (fn: () => Promise<void>) => (lock = lock.then(fn));
    const act = (i: number) =>
      serial(async () => {
        if (inBatch === 0) lite.run("BEGIN");
        lite.run("SAVEPOINT a");
        await asyncAction(i);
        lite.run("RELEASE a");
        if (++inBatch === BATCH) {
          lite.run("COMMIT");
          inBatch = 0;
        }
      });
    await Promise.all(
      Array.from({ length: 16 }, async (_, s) => {
        for (let i = s; i < N; i += 16) await act(i);
      }),
    );
    return ((performance.now() - t) * 1000) / N;
  };
  // Interleaved rounds, so that the machine's load falls on both alike.
  const syncUs: number[] = [];
  const asyncUs: number[] = [];
  for (let round = 0; round < 3; round++) {
    syncUs.push(timeSync());
    asyncUs.push(await timeAsync());
  }
  f.sqlite_sync_us_per_action = r2(Math.min(...syncUs));
  f.sqlite_awaited_us_per_action = r2(Math.min(...asyncUs));
  f.sqlite_awaited_extra_us = r2(Math.min(...asyncUs) - Math.min(...syncUs));
  lite.close();

  // --- PostgreSQL: the same action awaited statement by statement.
  const setup = new SQL(url, { max: 1 });
  await setup
    .unsafe(`CREATE TABLE users (id int PRIMARY KEY, realm_id int, name text, role int);
    CREATE TABLE subs (user_id int, channel_id int, PRIMARY KEY (user_id, channel_id));
    CREATE TABLE msgs (id bigserial PRIMARY KEY, sender_id int, channel_id int, content text);
    CREATE TABLE ums (user_id int, message_id bigint, flags int, PRIMARY KEY (user_id, message_id));
    INSERT INTO users SELECT i, 1, 'user ' || i, 400 FROM generate_series(1, ${USERS}) i;
    INSERT INTO subs SELECT i, i % 10 FROM generate_series(1, ${USERS}) i;`)
    .simple();
  await setup.close();
  const pgAction = async (db: SQL, i: number) => {
    const u = (i % USERS) + 1;
    for (let k = 0; k < 5; k++) await db`SELECT * FROM users WHERE id = ${((u + k) % USERS) + 1}`;
    await db`SELECT 1 FROM subs WHERE user_id = ${u} AND channel_id = ${u % 10}`;
    const [{ id }] = await db`INSERT INTO msgs (sender_id, channel_id, content) VALUES (${u}, ${u % 10}, ${"hello " + i}) RETURNING id`;
    await db`INSERT INTO ums VALUES (${u}, ${id}, 1)`;
  };
  // One round trip, the floor under every awaited statement.
  const one = new SQL(url, { max: 1 });
  await one`SELECT 1`;
  let t = performance.now();
  for (let i = 0; i < 2000; i++) await one`SELECT * FROM users WHERE id = ${(i % USERS) + 1}`;
  f.pg_round_trip_us = r1(((performance.now() - t) * 1000) / 2000);

  // A node serialising its actions: each in a SAVEPOINT of one batch transaction of 100.
  const M = 3000;
  t = performance.now();
  for (let b = 0; b < M / BATCH; b++)
    await one.begin(async (tx) => {
      for (let i = 0; i < BATCH; i++) await tx.savepoint((sp) => pgAction(sp as unknown as SQL, b * BATCH + i));
    });
  f.pg_serial_batched_actions_per_s = perSecond(M, performance.now() - t);
  await one.close();

  // Concurrent actions, each its own transaction, on a pool of 16 connections.
  const pool = new SQL(url, { max: 16 });
  t = performance.now();
  await Promise.all(
    Array.from({ length: 16 }, async (_, s) => {
      for (let i = s; i < M; i += 16) await pool.begin((tx) => pgAction(tx as unknown as SQL, M + i));
    }),
  );
  f.pg_concurrent_tx_actions_per_s = perSecond(M, performance.now() - t);
  // The same, the action's reads sent together (pipelined) before its writes.
  const pipelined = async (db: SQL, i: number) => {
    const u = (i % USERS) + 1;
    await Promise.all([
      ...Array.from({ length: 5 }, (_, k) => db`SELECT * FROM users WHERE id = ${((u + k) % USERS) + 1}`),
      db`SELECT 1 FROM subs WHERE user_id = ${u} AND channel_id = ${u % 10}`,
    ]);
    const [{ id }] = await db`INSERT INTO msgs (sender_id, channel_id, content) VALUES (${u}, ${u % 10}, ${"hello " + i}) RETURNING id`;
    await db`INSERT INTO ums VALUES (${u}, ${id}, 1)`;
  };
  t = performance.now();
  await Promise.all(
    Array.from({ length: 16 }, async (_, s) => {
      for (let i = s; i < M; i += 16) await pool.begin((tx) => pipelined(tx as unknown as SQL, 2 * M + i));
    }),
  );
  f.pg_concurrent_tx_pipelined_reads_actions_per_s = perSecond(M, performance.now() - t);
  await pool.close();
  f.sqlite_sync_actions_per_s = Math.round(1e6 / (f.sqlite_sync_us_per_action as number));
  return f;
}

/**
 * How many SQL statements one channel send runs on today's server (a real one, in this process, sending
 * over HTTP to a channel of 100 subscribers): with a round trip each, the cost an awaited store pays.
 */
async function statements(): Promise<Figures> {
  // Every statement the server prepares is handed out wrapped, counting its runs while `counting` is on.
  const proto = Database.prototype as unknown as Record<string, (...a: unknown[]) => unknown>;
  const originals = { prepare: proto.prepare!, query: proto.query!, run: proto.run! };
  let counting = false;
  let statements = 0;
  let raw = 0;
  const counted = (st: object) =>
    new Proxy(st, {
      get(target, prop) {
        const v = (target as Record<string | symbol, unknown>)[prop];
        if (typeof v !== "function") return v;
        return (...a: unknown[]) => {
          if (counting && ["all", "get", "run", "values", "iterate"].includes(prop as string)) statements++;
          return (v as (...a: unknown[]) => unknown).apply(target, a);
        };
      },
    });
  proto.prepare = function (this: unknown, ...a: unknown[]) {
    return counted(originals.prepare.apply(this, a) as object);
  };
  proto.query = function (this: unknown, ...a: unknown[]) {
    return counted(originals.query.apply(this, a) as object);
  };
  proto.run = function (this: unknown, ...a: unknown[]) {
    if (counting) raw++;
    return originals.run.apply(this, a);
  };
  const s = await startServer();
  try {
    const users = await Promise.all(Array.from({ length: 99 }, () => s.newUser()));
    await s.owner.post("/users/me/subscriptions", { subscriptions: [{ name: "probe" }], principals: users.map((u) => u.userId) });
    const sender = users[0]!;
    await sender.post("/messages", { type: "stream", to: "probe", topic: "warm", content: "warm up" });
    const N = 50;
    counting = true;
    for (let i = 0; i < N; i++) await sender.post("/messages", { type: "stream", to: "probe", topic: `t${i % 5}`, content: `hello ${i}` });
    counting = false;
    return { per_channel_send: r1(statements / N), plus_savepoints_and_commits: r1(raw / N) };
  } finally {
    Object.assign(proto, originals);
    await s.stop();
  }
}

/** Full-text search of a generated 200,000-message table: FTS5 (as confab's index) against tsvector + GIN. */
async function search(url: string, ctx: BenchContext): Promise<Figures> {
  const f: Figures = {};
  const ROWS = 200_000;
  const syl = ["ka", "lo", "mi", "ren", "tu", "sa", "vor", "el", "di", "pan", "qui", "bro", "ste", "ga", "nu"];
  const vocab: string[] = [];
  for (const a of syl) for (const b of syl) for (const c of syl) vocab.push(a + b + c);
  // A few words are common, most rare (rank ~ u^3), as in real text.
  let seed = 21;
  const rand = () => (seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff;
  const word = () => vocab[Math.floor(rand() ** 3 * vocab.length)]!;
  const rows = Array.from({ length: ROWS }, (_, i) => ({
    id: i + 1,
    recipient_id: (i % 50) + 1,
    topic: `${word()} ${word()}`,
    content: Array.from({ length: 12 }, word).join(" "),
  }));
  const common = vocab[0]!;
  const middle = vocab[Math.floor(0.3 ** 3 * vocab.length)]!;
  const rare = vocab[Math.floor(0.9 ** 3 * vocab.length)]!;
  const queries: [string, string][] = [
    ["common", common],
    ["middle", middle],
    ["rare", rare],
    ["two_words", `${common} ${middle}`],
  ];

  const lite = new Database(join(ctx.tmp, "search.db"), { create: true });
  lite.run("PRAGMA journal_mode = WAL");
  lite.run("CREATE TABLE messages (id INTEGER PRIMARY KEY, recipient_id INT, topic TEXT, content TEXT)");
  lite.run("CREATE INDEX messages_recipient ON messages (recipient_id, id)");
  lite.run("CREATE VIRTUAL TABLE messages_fts USING fts5(topic, body, content='', contentless_delete=1, tokenize='porter unicode61 remove_diacritics 2')");
  let t = performance.now();
  lite.run("BEGIN");
  const insM = lite.query("INSERT INTO messages VALUES (?, ?, ?, ?)");
  const insF = lite.query("INSERT INTO messages_fts (rowid, topic, body) VALUES (?, ?, ?)");
  for (const r of rows) {
    insM.run(r.id, r.recipient_id, r.topic, r.content);
    insF.run(r.id, r.topic, r.content);
  }
  lite.run("COMMIT");
  f.sqlite_load_s = r1((performance.now() - t) / 1000);
  // confab's narrow shape: the index drives, newest first, the conversation filtered on the row.
  const liteQ = lite.query(
    "SELECT m.id FROM messages_fts CROSS JOIN messages m ON m.id = messages_fts.rowid WHERE messages_fts MATCH ? AND m.recipient_id = ? ORDER BY messages_fts.rowid DESC LIMIT 100",
  );
  const ftsMatch = (s: string) =>
    s
      .split(" ")
      .map((w) => `"${w}"`)
      .join(" AND ");

  const sql = new SQL(url, { max: 1 });
  await sql`CREATE TABLE messages (id bigint PRIMARY KEY, recipient_id int, topic text, content text,
    search_tsv tsvector GENERATED ALWAYS AS (to_tsvector('english', topic || ' ' || content)) STORED)`;
  await sql`CREATE INDEX messages_recipient ON messages (recipient_id, id)`;
  t = performance.now();
  for (let i = 0; i < ROWS; i += 5000) await sql`INSERT INTO messages ${sql(rows.slice(i, i + 5000), "id", "recipient_id", "topic", "content")}`;
  await sql`CREATE INDEX messages_search ON messages USING gin (search_tsv)`;
  await sql`VACUUM ANALYZE messages`;
  f.pg_load_and_index_s = r1((performance.now() - t) / 1000);

  // Bun prepares each query; after five runs PostgreSQL may keep a generic plan, blind to how common the
  // searched word is. The same queries on a connection that plans every run for its own words:
  const custom = new SQL(url, { max: 1 });
  await custom`SET plan_cache_mode = force_custom_plan`;
  for (const [label, text] of queries) {
    const liteMs: number[] = [];
    const pgMs: number[] = [];
    const customMs: number[] = [];
    let liteHits = 0;
    let pgHits = 0;
    for (let i = 0; i < 60; i++) {
      const recipient = (i % 50) + 1;
      let s = performance.now();
      liteHits = liteQ.all(ftsMatch(text), recipient).length;
      liteMs.push(performance.now() - s);
      s = performance.now();
      pgHits = (
        await sql`SELECT id FROM messages WHERE search_tsv @@ plainto_tsquery('english', ${text}) AND recipient_id = ${recipient} ORDER BY id DESC LIMIT 100`
      ).length;
      pgMs.push(performance.now() - s);
      s = performance.now();
      await custom`SELECT id FROM messages WHERE search_tsv @@ plainto_tsquery('english', ${text}) AND recipient_id = ${recipient} ORDER BY id DESC LIMIT 100`;
      customMs.push(performance.now() - s);
    }
    const [{ n }] = await sql`SELECT count(*)::int AS n FROM messages WHERE search_tsv @@ plainto_tsquery('english', ${text})`;
    f[`${label}_matches`] = n;
    f[`${label}_hits_sqlite_pg`] = `${liteHits} ${pgHits}`;
    f[`${label}_sqlite_p50_p99_ms`] = `${r2(pct(liteMs, 50))} ${r2(pct(liteMs, 99))}`;
    f[`${label}_pg_p50_p99_ms`] = `${r2(pct(pgMs, 50))} ${r2(pct(pgMs, 99))}`;
    f[`${label}_pg_custom_plan_p50_p99_ms`] = `${r2(pct(customMs, 50))} ${r2(pct(customMs, 99))}`;
  }
  lite.close();
  await Promise.all([sql.close(), custom.close()]);
  return f;
}
