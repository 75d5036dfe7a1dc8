// The PostgreSQL test harness: a cluster starts, answers through Bun's built-in client, and stopping it
// leaves no process and no directory behind. Skipped, saying why, where no PostgreSQL can be had.
import { expect, test } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import { SQL } from "bun";
import { postgresMissing, startPostgres } from "../helpers/postgres";

const missing = postgresMissing("PostgreSQL harness test");

test.skipIf(missing !== null)("a PostgreSQL cluster starts on 127.0.0.1, answers SELECT 1, and stop() leaves nothing running", async () => {
  const pg = await startPostgres();
  // Running: the process exists and has not exited (pg_ctl's daemon is reaped by init, maybe later).
  const alive = (pid: number) => {
    try {
      return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, "utf8"));
    } catch {
      return false;
    }
  };
  let dir = "";
  try {
    expect(pg.url).toMatch(/^postgres:\/\/confab@127\.0\.0\.1:\d+\/confab$/);
    expect(alive(pg.pid)).toBe(true);
    const sql = new SQL(pg.url);
    try {
      expect(await sql`SELECT 1 AS one`).toEqual([{ one: 1 }]);
      const [where] = await sql`SELECT current_user AS who, current_database() AS db, current_setting('data_directory') AS dir`;
      expect({ who: where.who, db: where.db }).toEqual({ who: "confab", db: "confab" });
      dir = where.dir;
      expect(existsSync(dir)).toBe(true);
    } finally {
      await sql.close();
    }
  } finally {
    await pg.stop();
  }
  expect(alive(pg.pid)).toBe(false);
  expect(existsSync(dir)).toBe(false);
  await pg.stop(); // a second stop is harmless
});

test.skipIf(missing !== null)("two clusters run side by side on different ports", async () => {
  const [a, b] = await Promise.all([startPostgres(), startPostgres()]);
  try {
    expect(a.port).not.toBe(b.port);
    const [sa, sb] = [new SQL(a.url), new SQL(b.url)];
    await sa`CREATE TABLE only_here (x int)`;
    expect(await sb`SELECT count(*)::int AS n FROM pg_tables WHERE tablename = 'only_here'`).toEqual([{ n: 0 }]);
    await Promise.all([sa.close(), sb.close()]);
  } finally {
    await Promise.all([a.stop(), b.stop()]);
  }
});
