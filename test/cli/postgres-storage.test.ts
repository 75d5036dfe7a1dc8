// storage.driver postgres, as an operator runs it: `confab migrate` migrates PostgreSQL, `serve` answers
// from it and says so in GET /health, `doctor` checks it, `backup`/`restore` say whose backups these are,
// a database written by a newer confab is refused, and the URL's password is never printed. Skipped,
// saying why, where no PostgreSQL can be started.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { SQL } from "bun";
import { join } from "node:path";
import { postgresMissing, startPostgres, type Postgres } from "../helpers/postgres";
import { api, failure, run, serve, tempDir } from "./run";

const missing = postgresMissing("confab on PostgreSQL (CLI)");
const dir = tempDir("confab-pg-cli-");
let pg: Postgres;
let url: string;
const PASSWORD = "hunter2-never-printed";
beforeAll(async () => {
  if (missing) return;
  pg = await startPostgres();
  // The harness trusts every local connection; the password is there to be kept out of every output.
  url = (await pg.createDatabase("cli")).replace("confab@", `confab:${PASSWORD}@`);
});
afterAll(async () => {
  await pg?.stop();
  dir.remove();
});

const env = () => ({ CONFAB_STORAGE_DRIVER: "postgres", CONFAB_STORAGE_URL: url });
const said = (r: { stdout: string; stderr: string }) => r.stdout + r.stderr;

test.skipIf(missing !== null)(
  "migrate, doctor, serve, backup and restore on PostgreSQL",
  async () => {
    const dataDir = join(dir.path, "data");
    const first = await run(["migrate", "--data-dir", dataDir], { env: env() });
    expect(first.code).toBe(0);
    expect(first.stdout).toMatch(/^applied .* to postgres:\/\/confab@127\.0\.0\.1:\d+\/cli\n/);
    expect(first.stdout).toContain("pg_dump");
    const again = await run(["migrate", "--data-dir", dataDir], { env: env() });
    expect(again.stdout.trim()).toMatch(/^postgres:\/\/confab@127\.0\.0\.1:\d+\/cli is up to date$/);

    const doctor = await run(["doctor", "--data-dir", dataDir], { env: { ...env(), CONFAB_EXTERNAL_URL: "http://127.0.0.1:1" } });
    const line = (name: string) => doctor.stdout.split("\n").find((l) => l.slice(6).startsWith(`${name}:`)) ?? "";
    expect(line("storage")).toBe("ok    storage: PostgreSQL (storage.url)");
    expect(line("database")).toMatch(/^ok {4}database: PostgreSQL \d+(\.\d+)* at postgres:\/\/confab@127\.0\.0\.1:\d+\/cli answers/);
    expect(line("migrations")).toBe("ok    migrations: up to date");

    const s = await serve(dataDir, { env: env() });
    try {
      const health = await fetch(`${s.url}/health`);
      expect(health.status).toBe(200);
      expect(await health.json()).toMatchObject({ status: "ok", storage: "postgres", integrity_check: "none", writes: "on" });
      // The first start made the organization in PostgreSQL; its owner's key works.
      const owner = /owner email: +(\S+)/.exec(s.stdout())![1]!;
      const key = /API key: +(\S+)/.exec(s.stdout())![1]!;
      const sent = await api(s.url, "/messages", {
        auth: [owner, key],
        form: { type: "direct", to: JSON.stringify([owner]), content: "stored in PostgreSQL" },
      });
      expect(sent.status).toBe(200);
      const rows = new SQL(url, { max: 1 });
      try {
        expect((await rows`SELECT content FROM messages WHERE id = ${sent.body.id}`)[0].content).toBe("stored in PostgreSQL");
      } finally {
        await rows.close();
      }
    } finally {
      expect(await s.stop()).toBe(0);
    }
    expect(s.stdout() + s.stderr()).not.toContain(PASSWORD);

    for (const args of [
      ["backup", join(dir.path, "b.db")],
      ["restore", join(dir.path, "b.db")],
    ]) {
      const r = await run([...args, "--data-dir", dataDir], { env: env() });
      expect(failure(r)).toMatchObject({ code: 1, lines: [expect.stringContaining(`confab ${args[0]} works on the SQLite file; storage.driver is postgres`)] });
      expect(r.stderr).toContain("pg_dump");
    }
    for (const r of [first, again, doctor]) expect(said(r)).not.toContain(PASSWORD);
  },
  60_000,
);

test.skipIf(missing !== null)(
  "a database written by a newer confab is refused at start; a bad URL is a config error",
  async () => {
    const newer = await pg.createDatabase("newer");
    expect(
      (await run(["migrate", "--data-dir", join(dir.path, "newer")], { env: { CONFAB_STORAGE_DRIVER: "postgres", CONFAB_STORAGE_URL: newer } })).code,
    ).toBe(0);
    const sql = new SQL(newer, { max: 1 });
    await sql`INSERT INTO confab_migrations (tag, applied_at) VALUES ('9999_from_the_future', 0)`;
    await sql.close();
    const r = await run(["serve", "--data-dir", join(dir.path, "newer"), "--port", "0"], {
      env: { CONFAB_STORAGE_DRIVER: "postgres", CONFAB_STORAGE_URL: newer },
    });
    expect(failure(r)).toMatchObject({ code: 1, lines: [expect.stringContaining("written by a newer confab (it has migration 9999_from_the_future")] });
    const bad = await run(["migrate", "--data-dir", dir.path], {
      env: { CONFAB_STORAGE_DRIVER: "postgres", CONFAB_STORAGE_URL: `mysql://confab:${PASSWORD}@db/x` },
    });
    expect(failure(bad)).toMatchObject({
      code: 2,
      lines: ["confab: config: storage.url: not a PostgreSQL URL like postgres://user:password@host:port/database"],
    });
  },
  60_000,
);
