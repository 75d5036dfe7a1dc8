// A damaged database file: cut short, the server refuses to start, naming the file and the restore
// command, and leaves it as it was; damaged in the middle (where no cheap check looks), the background
// quick_check turns writes off and GET /health red, and says what to do.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { Database } from "bun:sqlite";
import { cpSync, readFileSync, truncateSync, writeFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { api, run, serve, tempDir } from "./run";

const dir = tempDir("confab-integrity-");
afterAll(() => dir.remove());
const populated = join(dir.path, "populated");
let auth: [string, string];

const hash = (file: string) => new Bun.CryptoHasher("sha256").update(readFileSync(file)).digest("hex");
const copy = (name: string) => {
  const to = join(dir.path, name);
  cpSync(populated, to, { recursive: true });
  return { dataDir: to, db: join(to, "confab.db") };
};

beforeAll(async () => {
  const s = await serve(populated);
  auth = [/owner email: +(\S+)/.exec(s.stdout())![1]!, /API key: +(\S+)/.exec(s.stdout())![1]!];
  const me = (await api(s.url, "/users/me", { auth })).body.user_id as number;
  for (let batch = 0; batch < 10; batch++)
    await Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        api(s.url, "/messages", { auth, form: { type: "direct", to: JSON.stringify([me]), content: `message ${batch}.${i} ` + "lorem ipsum ".repeat(80) } }),
      ),
    );
  expect(await s.stop()).toBe(0); // a clean stop checkpoints everything into confab.db
  expect(statSync(join(populated, "confab.db")).size).toBeGreaterThan(400_000);
}, 60_000);

test("a file cut to half: no start, one line naming the file and the restore command, exit 1, the file untouched", async () => {
  const { dataDir, db } = copy("truncated");
  truncateSync(db, Math.floor(statSync(db).size / 2));
  const before = hash(db);
  const r = await run(["serve", "--data-dir", dataDir, "--port", "0"]);
  expect(r.code).toBe(1);
  expect(r.stderr).toContain(`the database file ${db} is damaged`);
  expect(r.stderr).toContain("confab restore <backup file>");
  expect(r.stderr.trim().split("\n")).toHaveLength(1);
  expect(hash(db)).toBe(before);
  // Any other command that opens it says the same.
  const other = await run(["user", "list", "--data-dir", dataDir]);
  expect(other.code).toBe(1);
  expect(other.stderr).toContain(`${db} is damaged`);
}, 30_000);

test("a page of random bytes in the middle: the server starts, then writes are off, /health is red and the log says what to do", async () => {
  const { dataDir, db } = copy("scribbled");
  // A leaf in the middle of the messages table: not on the path to its first or its newest row, which
  // start-up may read (damage there is refused at start, as the test above shows).
  const ro = new Database(db, { readonly: true });
  const leaves = ro.query<{ pageno: number }, []>("SELECT pageno FROM dbstat WHERE name = 'messages' AND pagetype = 'leaf' ORDER BY path").all();
  const pageSize = ro.query<{ page_size: number }, []>("PRAGMA page_size").get()!.page_size;
  ro.close();
  expect(leaves.length).toBeGreaterThan(10);
  const bytes = readFileSync(db);
  bytes.set(crypto.getRandomValues(new Uint8Array(pageSize)), (leaves[leaves.length >> 1]!.pageno - 1) * pageSize);
  writeFileSync(db, bytes);
  const before = hash(db);
  const s = await serve(dataDir);
  try {
    let health: Response;
    const deadline = Date.now() + 15_000;
    while ((health = await fetch(`${s.url}/health`)).status === 200 && Date.now() < deadline) await Bun.sleep(50);
    expect(health.status).toBe(503);
    expect(await health.json()).toMatchObject({ status: "error", integrity_check: "failed", writes: "off" });
    const me = (await api(s.url, "/users/me", { auth })).body;
    expect(me.result).toBe("success"); // reads go on
    const sent = await api(s.url, "/messages", { auth, form: { type: "direct", to: JSON.stringify([me.user_id]), content: "after the damage" } });
    expect(sent.status).toBe(503);
    expect(sent.body).toMatchObject({
      result: "error",
      code: "BAD_REQUEST",
      msg: "The server's database is damaged, so changes are refused until an administrator restores a backup.",
    });
    expect(s.stderr()).toContain("integrity check failed; writes are off");
    expect(s.stderr()).toContain("confab restore <backup file>");
  } finally {
    await s.stop();
  }
  expect(hash(db)).toBe(before);
}, 60_000);
