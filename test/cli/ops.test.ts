// `confab doctor` and `confab health`, run as an operator runs them.
import { afterAll, expect, test } from "bun:test";
import { chmodSync, truncateSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { run, serve, tempDir } from "./run";

const dir = tempDir("confab-ops-");
afterAll(() => dir.remove());

const lineOf = (out: string, check: string) => out.split("\n").find((l) => l.slice(6).startsWith(check + ":")) ?? "";

test("doctor on a running, sound installation: one ok line per check, exit 0; health answers 200", async () => {
  const dataDir = join(dir.path, "sound");
  const s = await serve(dataDir);
  try {
    const r = await run(["doctor", "--data-dir", dataDir], { env: { CONFAB_EXTERNAL_URL: s.url } });
    expect(
      r.stdout
        .trim()
        .split("\n")
        .map((l) => l.slice(0, 6) + l.slice(6).split(":")[0]),
    ).toEqual([
      "ok    config",
      "ok    storage",
      "ok    data directory",
      "ok    free space",
      "ok    database",
      "ok    migrations",
      "ok    secrets key",
      "ok    tls",
      "ok    external_url",
      "ok    git",
    ]);
    expect(lineOf(r.stdout, "database")).toContain("quick_check ok");
    expect(r.code).toBe(0);
    const h = await run(["health", "--url", s.url]);
    expect(h.code).toBe(0);
    expect(h.stdout).toStartWith('200 {"status":"ok"');
  } finally {
    await s.stop();
  }
  // Stopped: health fails, doctor says the external URL was not tried (a warning, not a failure).
  expect((await run(["health", "--url", s.url])).code).toBe(1);
  const r = await run(["doctor", "--data-dir", dataDir], { env: { CONFAB_EXTERNAL_URL: s.url } });
  expect(lineOf(r.stdout, "external_url")).toStartWith("warn  external_url: no server is running");
  expect(r.code).toBe(0);
}, 60_000);

test("doctor names each problem and what to do, and exits 1", async () => {
  const dataDir = join(dir.path, "broken");
  expect((await run(["migrate", "--data-dir", dataDir])).code).toBe(0);
  const db = join(dataDir, "confab.db");
  truncateSync(db, Math.floor(statSync(db).size / 2));
  writeFileSync(join(dataDir, "secrets.key"), "not a key\n", { mode: 0o644 });
  chmodSync(join(dataDir, "secrets.key"), 0o644);
  const r = await run(["doctor", "--data-dir", dataDir], { env: { CONFAB_EXTERNAL_URL: "http://127.0.0.1:1" } });
  expect(r.code).toBe(1);
  expect(lineOf(r.stdout, "database")).toMatch(/^FAIL  database: the database file .* is damaged .* -> confab restore <backup file>$/);
  expect(lineOf(r.stdout, "secrets key")).toMatch(/^FAIL  secrets key: .*must be readable by its owner only.* -> /);
  expect(lineOf(r.stdout, "git")).toStartWith("ok    git");

  const bad = join(dir.path, "bad.yaml");
  writeFileSync(bad, "listen:\n  prot: 80\n");
  const c = await run(["doctor", "--config", bad, "--data-dir", dataDir]);
  expect(c.code).toBe(1);
  expect(c.stdout.trim()).toBe(`FAIL  config: config: unknown key listen.prot (${bad}) -> fix the key it names (config.example.yaml documents every key)`);
}, 60_000);
