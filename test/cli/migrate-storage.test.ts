// `confab migrate-storage`: a data directory filled through the API is copied into PostgreSQL and back
// into a fresh data directory, and a server on the round trip answers as the original did; refusals
// change nothing; the verification that ends each copy catches a difference. On a harness PostgreSQL
// server; skipped, saying why, where none can be started.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { Database } from "bun:sqlite";
import { SQL } from "bun";
import { cpSync, existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { compareStorage, copyStorage } from "../../src/db/copy-storage";
import { textForSearch } from "../../src/render";
import { migratePostgres } from "../../src/db/migrate-pg";
import { FIXTURES } from "../fixtures/plugins/helpers";
import { postgresMissing, startPostgres, type Postgres } from "../helpers/postgres";
import { validateResponse } from "../helpers/openapi";
import { api, failure, run, serve, tempDir, type Served } from "./run";

const missing = postgresMissing("confab migrate-storage test");
const tmp = tempDir("confab-migrate-storage-");
let pg: Postgres | null = null;
const dir = join(tmp.path, "data");
let auth: [string, string];
let original: Snapshot;
let fileUrl: string;
/** The newest message ever sent, deleted: its id is not handed out again, on either engine. */
let deletedId: number;

beforeAll(async () => {
  if (missing) return;
  pg = await startPostgres();
  const s = await serve(dir);
  try {
    auth = [/owner email: +(\S+)/.exec(s.stdout())![1]!, /API key: +(\S+)/.exec(s.stdout())![1]!];
    await populate(s);
    original = await snapshot(s);
  } finally {
    expect(await s.stop()).toBe(0);
  }
}, 60_000);
afterAll(async () => {
  await pg?.stop();
  tmp.remove();
});

/** A few users, channels, messages with reactions and an edit, a scheduled message, an upload and a plugin. */
async function populate(s: Served) {
  const ok = async (r: Promise<{ status: number; body: any }>) => {
    const got = await r;
    expect(got).toMatchObject({ status: 200 });
    return got.body;
  };
  for (const name of ["Ada", "Grace"])
    await ok(api(s.url, "/users", { auth, form: { email: `${name.toLowerCase()}@example.com`, password: "correct horse battery", full_name: name } }));
  for (const name of ["design", "ops"]) await ok(api(s.url, "/users/me/subscriptions", { auth, form: { subscriptions: JSON.stringify([{ name }]) } }));
  const form = new FormData();
  form.append("file", new File(["the quarterly numbers"], "numbers.txt", { type: "text/plain" }));
  const basic = "Basic " + Buffer.from(auth.join(":")).toString("base64");
  fileUrl = ((await (await fetch(`${s.url}/api/v1/user_uploads`, { method: "POST", headers: { Authorization: basic }, body: form })).json()) as { url: string })
    .url;
  const ids: number[] = [];
  for (let i = 0; i < 30; i++) {
    const content = i === 3 ? `the numbers: [numbers](${fileUrl})` : `message ${i} about ${i % 2 ? "lighthouses" : "tides"} & **bold** things`;
    ids.push((await ok(api(s.url, "/messages", { auth, form: { type: "stream", to: i % 3 ? "design" : "ops", topic: `topic ${i % 4}`, content } }))).id);
  }
  await ok(api(s.url, `/messages/${ids[5]}/reactions`, { auth, form: { emoji_name: "octopus" } }));
  await ok(api(s.url, `/messages/${ids[6]}/reactions`, { auth, form: { emoji_name: "tada" } }));
  await ok(api(s.url, `/messages/${ids[7]}`, { auth, method: "PATCH", form: { content: "edited: the lighthouse keeper" } }));
  await ok(api(s.url, `/messages/${ids[8]}`, { auth, method: "DELETE" })); // a hole in the ids
  deletedId = (await ok(api(s.url, "/messages", { auth, form: { type: "stream", to: "ops", topic: "oops", content: "sent by mistake" } }))).id;
  await ok(api(s.url, `/messages/${deletedId}`, { auth, method: "DELETE" }));
  const src = join(tmp.path, "plugin-src");
  cpSync(join(FIXTURES, "silent"), join(src, "silent"), { recursive: true });
  for (const args of [
    ["repo", "create", "plugins"],
    ["repo", "import", "plugins", src],
    ["plugin", "install", "--repo", "plugins", "--path", "silent"],
  ])
    expect(failure(await run([...args, "--data-dir", dir]))).toMatchObject({ code: 0 });
  await ok(
    api(s.url, "/scheduled_messages", {
      auth,
      form: {
        type: "stream",
        to: JSON.stringify((await ok(api(s.url, "/get_stream_id?stream=design", { auth }))).stream_id),
        topic: "later",
        content: "tomorrow",
        scheduled_delivery_timestamp: String(Math.floor(Date.now() / 1000) + 86_400),
      },
    }),
  );
}

type Snapshot = { messages: any; users: any; register: any; scheduled: any; search: any; plugins: any };

/** What a client sees: history, people, the register state (minus what each queue has of its own), a search. */
async function snapshot(s: Served): Promise<Snapshot> {
  const get = async (path: string) => {
    const r = await api(s.url, path, { auth });
    expect(r.status).toBe(200);
    expect(validateResponse("GET", path.split("?")[0]!, r.status, r.body)).toEqual([]);
    return r.body;
  };
  // Each server listens on its own port, which its URLs name.
  const register = JSON.parse(JSON.stringify((await api(s.url, "/register", { auth, method: "POST", form: {} })).body).replaceAll(s.url, "<server>"));
  for (const k of ["queue_id", "last_event_id", "server_timestamp", "server_generation", "presences", "presence_last_update_id"]) delete register[k];
  return {
    messages: await get("/messages?anchor=newest&num_before=100&num_after=0&narrow=[]"),
    users: await get("/users"),
    register,
    scheduled: await get("/scheduled_messages"),
    // The process's state is the running server's, not the database's.
    plugins: (await get("/ext/plugins")).plugins.map(({ state, ...install }: { state: string }) => install),
    search: await get(
      `/messages?anchor=newest&num_before=100&num_after=0&narrow=${encodeURIComponent(JSON.stringify([{ operator: "search", operand: "lighthouse" }]))}`,
    ),
  };
}

const tableCounts = (file: string) => {
  const db = new Database(file, { readonly: true });
  try {
    return db
      .query<{ name: string }, []>("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name NOT LIKE 'messages_fts%'")
      .all()
      .map((t) => [t.name, db.query<{ n: number }, []>(`SELECT count(*) AS n FROM "${t.name}"`).get()!.n]);
  } finally {
    db.close();
  }
};
/** What the data directory holds besides the database (as the nodes' shared storage would). */
const shared = () =>
  readdirSync(dir, { withFileTypes: true })
    .filter((e) => !e.name.startsWith("confab.db") && e.name !== "control.sock" && e.name !== "confab.pid")
    .map((e) => (e.isDirectory() ? `${e.name}/` : e.name))
    .sort();
const hash = (file: string) => new Bun.CryptoHasher("sha256").update(readFileSync(file)).digest("hex");

async function withPostgres<T>(url: string, fn: (sql: SQL) => Promise<T>): Promise<T> {
  const sql = new SQL(url, { max: 1 });
  try {
    return await fn(sql);
  } finally {
    await sql.close();
  }
}

test.skipIf(missing !== null)(
  "SQLite → PostgreSQL → a fresh data directory: verified both ways, and the server on the round trip answers as the original did",
  async () => {
    const url = await pg!.createDatabase("roundtrip");
    const before = hash(join(dir, "confab.db"));
    const there = await run(["migrate-storage", "--data-dir", dir, "--to", url]);
    expect(failure(there)).toMatchObject({ code: 0 });
    expect(there.stdout).toContain(`from SQLite (${join(dir, "confab.db")}) to PostgreSQL (postgres://confab@127.0.0.1:${pg!.port}/roundtrip)`);
    expect(there.stdout).toMatch(/^migrated PostgreSQL \(.*\) to this confab's schema first \(\d+ migrations, through \d{4}_\w+\)$/m);
    expect(there.stdout).toMatch(/^  messages: \d+ rows$/m);
    expect(there.stdout).toMatch(/^verified: every table's row count is equal on both sides, and \d+ sampled messages equal field by field$/m);
    expect(there.stdout).toContain(
      `the files beside the database are not copied: they stay in ${dir} (${shared().join(", ")}); confab nodes on PostgreSQL share that directory`,
    );
    expect(shared()).toEqual(expect.arrayContaining(["uploads/", "repositories/", "plugins/"]));
    expect(hash(join(dir, "confab.db"))).toBe(before); // the source is never changed

    await withPostgres(url, async (sql) => {
      const [m] = await sql`SELECT count(*)::int AS n, count(search_tsv)::int AS indexed FROM messages`;
      expect(m.indexed).toBe(m.n); // the search index is rebuilt
      expect(await sql`SELECT last_value::int AS last, is_called FROM messages_id_seq`).toEqual([{ last: deletedId, is_called: true }]);
      expect(await sql`SELECT id FROM messages WHERE search_tsv @@ plainto_tsquery('english', 'lighthouses')`).toHaveLength(original.search.messages.length);
    });

    // Back, into a new data directory that shares the files (as nodes share storage).
    const back = join(tmp.path, "back");
    for (const f of shared()) cpSync(join(dir, f), join(back, f), { recursive: true });
    const home = await run(["migrate-storage", "--from", url, "--to", back]);
    expect(failure(home)).toMatchObject({ code: 0 });
    expect(home.stdout).toContain(`the files beside the database are not copied: ${back} has ${shared().join(", ")}\n`);
    expect(tableCounts(join(back, "confab.db"))).toEqual(tableCounts(join(dir, "confab.db")));

    const s = await serve(back);
    try {
      const now = await snapshot(s);
      expect(now.messages).toEqual(original.messages);
      expect(now.users).toEqual(original.users);
      expect(now.scheduled).toEqual(original.scheduled);
      expect(now.plugins).toEqual(original.plugins);
      expect(now.plugins).toHaveLength(1);
      expect(now.search.messages.map((m: { id: number }) => m.id)).toEqual(original.search.messages.map((m: { id: number }) => m.id));
      expect(now.register).toEqual(original.register);
      const file = await fetch(`${s.url}${fileUrl}`, { headers: { Authorization: "Basic " + Buffer.from(auth.join(":")).toString("base64") } });
      expect(await file.text()).toBe("the quarterly numbers");
      // New ids continue past every id handed out before the trip.
      const sent = await api(s.url, "/messages", { auth, form: { type: "stream", to: "ops", topic: "after", content: "after the trip" } });
      expect(sent.body.id).toBe(deletedId + 1);
    } finally {
      expect(await s.stop()).toBe(0);
    }
  },
  120_000,
);

test.skipIf(missing !== null)(
  "refusals say why and change nothing: a running server, a non-empty target, a bad URL",
  async () => {
    const url = await pg!.createDatabase("refusals");
    const tables = (u: string) =>
      withPostgres(u, async (sql) => (await sql`SELECT table_name FROM information_schema.tables WHERE table_schema = 'public'`).length);
    const source = join(dir, "confab.db");

    const s = await serve(dir);
    try {
      const r = await run(["migrate-storage", "--data-dir", dir, "--to", url]);
      expect(failure(r)).toMatchObject({
        code: 1,
        lines: [`confab: the server is running on ${dir} (pid ${s.proc.pid}); stop it before copying its database`],
      });
      expect(await tables(url)).toBe(0);
    } finally {
      expect(await s.stop()).toBe(0);
    }

    for (const [bad, why] of [
      ["mysql://x@127.0.0.1/db", "confab: 'mysql:' is not PostgreSQL's scheme; expected postgres://user:password@host:port/database"],
      ["not a url", "confab: 'not a url' is not a URL; expected postgres://user:password@host:port/database"],
      ["postgres://confab:secret@127.0.0.1:1/confab", "confab: cannot connect to postgres://confab@127.0.0.1:1/confab: "],
    ] as const) {
      const r = await run(["migrate-storage", "--data-dir", dir, "--to", bad]);
      expect(r.code).toBe(1);
      expect(r.stderr).toStartWith(why);
      expect(r.stderr).not.toContain("secret");
    }

    // A filled target is refused before anything is migrated or written; --replace replaces it.
    expect((await run(["migrate-storage", "--data-dir", dir, "--to", url])).code).toBe(0);
    await withPostgres(url, (sql) => sql`DELETE FROM reactions WHERE id = (SELECT min(id) FROM reactions)`);
    const again = await run(["migrate-storage", "--data-dir", dir, "--to", url]);
    expect(failure(again).code).toBe(1);
    expect(again.stderr).toMatch(
      /^confab: PostgreSQL \(postgres:\/\/confab@127\.0\.0\.1:\d+\/refusals\) is not empty \(attachments: 1 row, channels: \d+ rows, .*, …\); give --replace to replace its contents\n$/,
    );
    const count = (sql: SQL) => sql`SELECT count(*)::int AS n FROM reactions`.then((r) => r[0].n);
    expect(await withPostgres(url, count)).toBe(1);
    expect((await run(["migrate-storage", "--data-dir", dir, "--to", url, "--replace"])).code).toBe(0);
    expect(await withPostgres(url, count)).toBe(2);

    // Back into a data directory that holds a database: refused, the file untouched.
    const before = hash(source);
    const home = await run(["migrate-storage", "--from", url, "--to", dir]);
    expect(failure(home).lines[0]).toMatch(new RegExp(`^confab: SQLite \\(${source.replace(/[.]/g, "\\.")}\\) is not empty \\(.*\\); give --replace`));
    expect(hash(source)).toBe(before);

    // Back from a database with nothing of confab's: refused before the data directory is even made.
    const never = join(tmp.path, "never");
    const empty = await run(["migrate-storage", "--from", await pg!.createDatabase("empty"), "--to", never]);
    expect(failure(empty)).toMatchObject({ code: 1, lines: [expect.stringMatching(/^confab: PostgreSQL \(.*\/empty\) holds no confab database$/)] });
    expect(existsSync(never)).toBe(false);
    expect(failure(await run(["migrate-storage", "--from", url, "--to", url])).lines).toEqual([
      "confab: --from and --to are both PostgreSQL; one side must be a data directory",
    ]);

    // A database that is not confab's is refused untouched, --replace or not.
    const foreign = await pg!.createDatabase("foreign");
    await withPostgres(foreign, (sql) => sql`CREATE TABLE someone_elses (x int)`);
    const f = await run(["migrate-storage", "--data-dir", dir, "--to", foreign, "--replace"]);
    expect(f.stderr).toMatch(/is not a confab database \(it has tables but no confab_migrations ledger\)\n$/);
    expect(await tables(foreign)).toBe(1);
  },
  120_000,
);

test.skipIf(missing !== null)(
  "a copy that fails halfway leaves the target without a single copied row",
  async () => {
    // A source whose last tables break a foreign key PostgreSQL enforces (SQLite enforces it per connection).
    const broken = join(tmp.path, "broken");
    cpSync(dir, broken, { recursive: true });
    const db = new Database(join(broken, "confab.db"));
    db.run("PRAGMA foreign_keys = OFF");
    db.run("INSERT INTO message_attachments (message_id, attachment_id) SELECT 999999, id FROM attachments LIMIT 1");
    db.close();
    const url = await pg!.createDatabase("halfway");
    const r = await run(["migrate-storage", "--data-dir", broken, "--to", url]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("foreign key");
    const rows = await withPostgres(url, async (sql) => {
      const names = await sql`SELECT table_name AS t FROM information_schema.tables WHERE table_schema = 'public' AND table_name <> 'confab_migrations'`;
      let n = 0;
      for (const { t } of names) n += (await sql.unsafe(`SELECT count(*)::int AS n FROM "${t}"`))[0].n;
      return { tables: names.length, n };
    });
    expect(rows.tables).toBeGreaterThan(50); // migrated to the current schema first
    expect(rows.n).toBe(0);
  },
  60_000,
);

test.skipIf(missing !== null)("the verification finds a changed message and a missing row", async () => {
  const url = await pg!.createDatabase("tampered");
  expect((await run(["migrate-storage", "--data-dir", dir, "--to", url])).code).toBe(0);
  const source = { sqlite: join(dir, "confab.db") };
  expect((await compareStorage(source, { postgres: url })).mismatches).toEqual([]);
  const newest = await withPostgres(url, async (sql) => {
    await sql`DELETE FROM reactions WHERE id = (SELECT min(id) FROM reactions)`;
    const [{ id }] = await sql`UPDATE messages SET content = 'tampered' WHERE id = (SELECT max(id) FROM messages) RETURNING id::int`;
    return id;
  });
  const r = await compareStorage(source, { postgres: url });
  expect(r.mismatches).toEqual([
    `reactions: 2 rows in SQLite (${source.sqlite}), 1 in PostgreSQL (postgres://confab@127.0.0.1:${pg!.port}/tampered)`,
    `message ${newest}: content differs`,
  ]);
  expect(r.sampled).toBeGreaterThan(10);
});

test.skipIf(missing !== null)("a source at another schema version is refused: the copy never migrates its source", async () => {
  const url = await pg!.createDatabase("versions");
  const older = join(tmp.path, "older");
  cpSync(dir, older, { recursive: true });
  const db = new Database(join(older, "confab.db"));
  const newest = db.query<{ tag: string }, []>("SELECT max(tag) AS tag FROM confab_migrations").get()!.tag;
  db.run("DELETE FROM confab_migrations WHERE tag = ?", [newest]);
  db.close();
  const before = hash(join(older, "confab.db"));
  expect(failure(await run(["migrate-storage", "--data-dir", older, "--to", url])).lines).toEqual([
    `confab: SQLite (${join(older, "confab.db")}) lacks migration ${newest}; run confab migrate first (the source is never changed)`,
  ]);
  expect(hash(join(older, "confab.db"))).toBe(before);

  await withPostgres(url, async (sql) => {
    await migratePostgres(sql);
    await sql`INSERT INTO confab_migrations VALUES ('9999_from_the_future', 0)`;
  });
  expect(failure(await run(["migrate-storage", "--from", url, "--to", join(tmp.path, "future")])).lines).toEqual([
    `confab: PostgreSQL (postgres://confab@127.0.0.1:${pg!.port}/versions) was written by a newer confab (migration 9999_from_the_future); copy it with that version`,
  ]);
  expect(existsSync(join(tmp.path, "future"))).toBe(false);
});

test.skipIf(missing !== null)("in batches of 3 rows (every table's keys paged through many), both ways, the copy is the same", async () => {
  const url = await pg!.createDatabase("batches");
  const source = join(dir, "confab.db");
  const back = join(tmp.path, "batched", "confab.db");
  const o = { replace: false, textForSearch, busyTimeoutMs: 5000, batch: 3 };
  expect((await copyStorage({ sqlite: source }, { postgres: url }, o)).mismatches).toEqual([]);
  expect((await copyStorage({ postgres: url }, { sqlite: back }, o)).mismatches).toEqual([]);
  expect(tableCounts(back)).toEqual(tableCounts(source));
  const rows = (file: string, table: string) => {
    const db = new Database(file, { readonly: true });
    try {
      return db.query(`SELECT * FROM ${table} ORDER BY 1, 2`).all();
    } finally {
      db.close();
    }
  };
  // Byte for byte where no column is JSON (jsonb stores objects with its own key order; the API round
  // trip above compares those by value).
  for (const table of ["user_messages", "subscriptions", "messages", "reactions", "recipients"])
    expect({ table, rows: rows(back, table) }).toEqual({ table, rows: rows(source, table) });
});
