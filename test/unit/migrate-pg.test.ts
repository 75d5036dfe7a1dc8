// PostgreSQL's migrations: all or nothing, once when nodes start together, and a database written by a
// newer confab (or not by confab at all) is refused untouched. On a harness server; skipped, saying
// why, where none can be started.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { SQL } from "bun";
import { migrations } from "../../migrations/pg";
import { migratePostgres } from "../../src/db/migrate-pg";
import { postgresMissing, startPostgres, type Postgres } from "../helpers/postgres";

const missing = postgresMissing("PostgreSQL migrations test");
let server: Postgres | null = null;
const opened: SQL[] = [];

beforeAll(async () => {
  if (!missing) server = await startPostgres();
});
afterAll(async () => {
  await Promise.all(opened.map((c) => c.close()));
  await server?.stop();
});

let databases = 0;
/** A new, empty database on the server, and `n` clients of it. */
async function freshDatabase(n = 1): Promise<SQL[]> {
  const url = await server!.createDatabase(`m${++databases}`);
  const clients = Array.from({ length: n }, () => new SQL(url, { max: 1 }));
  opened.push(...clients);
  return clients;
}

const tablesOf = async (sql: SQL) =>
  ((await sql`SELECT table_name AS t FROM information_schema.tables WHERE table_schema = 'public' ORDER BY 1`) as { t: string }[]).map((r) => r.t);

test.skipIf(missing !== null)("a new database gets every migration, recorded in the ledger; a second run finds nothing to do", async () => {
  const [sql] = await freshDatabase();
  expect(await migratePostgres(sql!)).toEqual(migrations.map((m) => m.tag));
  expect(await tablesOf(sql!)).toContain("messages");
  expect((await sql!`SELECT tag FROM confab_migrations ORDER BY tag`).map((r: { tag: string }) => r.tag)).toEqual(migrations.map((m) => m.tag));
  expect(await migratePostgres(sql!)).toEqual([]);
});

test.skipIf(missing !== null)("nodes migrating at once: one applies everything, the others wait and find nothing left", async () => {
  const clients = await freshDatabase(3);
  const results = await Promise.all(clients.map((c) => migratePostgres(c)));
  expect(results.map((r) => r.length).sort()).toEqual([0, 0, migrations.length]);
});

test.skipIf(missing !== null)("a failing migration leaves the database as it was, earlier pending ones included", async () => {
  const [sql] = await freshDatabase();
  const bad = { tag: "9000_bad", sql: "CREATE TABLE notes (x int);\n--> statement-breakpoint\nINSERT INTO notes VALUES ('not a number')" };
  await expect(migratePostgres(sql!, [...migrations, bad])).rejects.toThrow(/invalid input syntax/);
  expect(await tablesOf(sql!)).toEqual([]); // not even the ledger
  await migratePostgres(sql!);
  const good = { tag: "9001_notes", sql: "CREATE TABLE notes (x int)" };
  await expect(migratePostgres(sql!, [...migrations, bad, good])).rejects.toThrow(/invalid input syntax/);
  expect(await tablesOf(sql!)).not.toContain("notes");
  expect(await migratePostgres(sql!, [...migrations, good])).toEqual(["9001_notes"]);
});

test.skipIf(missing !== null)("a database written by a newer confab, or not by confab, is refused untouched", async () => {
  const [sql] = await freshDatabase();
  await migratePostgres(sql!);
  await sql!`INSERT INTO confab_migrations VALUES ('9999_from_the_future', 0)`;
  await expect(migratePostgres(sql!, [...migrations, { tag: "9001_notes", sql: "CREATE TABLE notes (x int)" }])).rejects.toThrow(
    "the database was written by a newer confab (it has migration 9999_from_the_future which this version does not know); upgrade confab or restore a backup",
  );
  expect(await tablesOf(sql!)).not.toContain("notes");

  const [other] = await freshDatabase();
  await other!`CREATE TABLE someone_elses (x int)`;
  await expect(migratePostgres(other!)).rejects.toThrow("the database is not a confab database (it has tables but no confab_migrations ledger)");
  expect(await tablesOf(other!)).toEqual(["someone_elses"]);
});
