// Backups that prove themselves, and the restore drill: back up, change, restore, see the old state.
import { afterAll, expect, test } from "bun:test";
import { Database } from "bun:sqlite";
import { cpSync, existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { api, failure, run, serve, tempDir } from "./run";

const tmp = tempDir("confab-backup-");
afterAll(() => tmp.remove());
const hash = (file: string) => new Bun.CryptoHasher("sha256").update(readFileSync(file)).digest("hex");

test("restore drill: a verified backup with its uploads; after changes, restore brings back exactly the old state", async () => {
  const dir = join(tmp.path, "data");
  const backup = join(tmp.path, "drill.db");
  let s = await serve(dir);
  const auth: [string, string] = [/owner email: +(\S+)/.exec(s.stdout())![1]!, /API key: +(\S+)/.exec(s.stdout())![1]!];
  const basic = "Basic " + Buffer.from(auth.join(":")).toString("base64");
  const me = (await api(s.url, "/users/me", { auth })).body.user_id as number;
  const history = async () =>
    (await api(s.url, `/messages?anchor=newest&num_before=50&num_after=0&narrow=[]`, { auth })).body.messages.map((m: { content: string }) => m.content);
  let fileUrl: string;
  try {
    const form = new FormData();
    form.append("file", new File(["the quarterly numbers"], "numbers.txt", { type: "text/plain" }));
    const up = (await (await fetch(`${s.url}/api/v1/user_uploads`, { method: "POST", headers: { Authorization: basic }, body: form })).json()) as {
      url: string;
    };
    fileUrl = up.url;
    const send = (content: string) => api(s.url, "/messages", { auth, form: { type: "direct", to: JSON.stringify([me]), content } });
    expect((await send(`before the backup [numbers](${fileUrl})`)).status).toBe(200);

    const b = await run(["backup", backup, "--data-dir", dir]);
    expect(b.code).toBe(0);
    expect(b.stdout).toMatch(
      /and verified: integrity ok, \d+ rows in \d+ tables match the database, 1 uploaded file\(s\) \(1 KiB\) checked in .*drill\.db\.files\n$/,
    );
    expect(readdirSync(join(`${backup}.files`, "uploads"), { recursive: true }).length).toBeGreaterThan(0);

    // A change after the backup.
    expect((await send("after the backup")).status).toBe(200);
    expect((await history()).slice(-2)).toEqual([expect.stringContaining("before the backup"), "<p>after the backup</p>"]);
  } finally {
    expect(await s.stop()).toBe(0);
  }
  const r = await run(["restore", backup, "--data-dir", dir]);
  expect(r).toMatchObject({ code: 0, stdout: `restored ${backup} and 1 uploaded file(s) into ${dir}\n` });
  s = await serve(dir);
  try {
    const restored = await history();
    expect(restored.at(-1)).toContain("before the backup");
    expect(restored).not.toContain("<p>after the backup</p>");
    const file = await fetch(`${s.url}${fileUrl}`, { headers: { Authorization: basic } });
    expect(file.status).toBe(200);
    expect(await file.text()).toBe("the quarterly numbers");
  } finally {
    await s.stop();
  }
}, 120_000);

test("restore checks before replacing anything: a backup from a newer confab, a damaged one, or one missing an upload is refused", async () => {
  const dir = join(tmp.path, "checks");
  expect((await run(["migrate", "--data-dir", dir])).code).toBe(0);
  const good = join(tmp.path, "good.db");
  expect((await run(["backup", good, "--data-dir", dir])).code).toBe(0);
  const current = hash(join(dir, "confab.db"));

  const newer = join(tmp.path, "newer.db");
  cpSync(good, newer);
  const db = new Database(newer);
  db.run("INSERT INTO confab_migrations (tag, applied_at) VALUES ('9999_from_the_future', 0)");
  db.close();
  expect(failure(await run(["restore", newer, "--data-dir", dir]))).toEqual({
    code: 1,
    lines: [`confab: ${newer} was written by a newer confab (migration 9999_from_the_future); restore it with that version`],
    stdout: "",
  });

  const cut = join(tmp.path, "cut.db");
  const bytes = readFileSync(good);
  writeFileSync(cut, bytes.subarray(0, bytes.length / 2));
  expect(failure(await run(["restore", cut, "--data-dir", dir])).lines[0]).toMatch(new RegExp(`^confab: ${cut} is damaged: it is cut short`));

  // A backup whose files folder lost an upload its rows name.
  const lost = join(tmp.path, "lost.db");
  cpSync(good, lost);
  const l = new Database(lost);
  l.run(
    "INSERT INTO attachments (realm_id, owner_id, path_id, name, content_type, size, create_time) VALUES (1, 1, '1/abc/gone.txt', 'gone.txt', 'text/plain', 5, 0)",
  );
  l.close();
  writeFileSync(join(tmp.path, "placeholder"), "");
  cpSync(join(tmp.path, "placeholder"), join(`${lost}.files`, "uploads", "1", "other.txt"), { recursive: true });
  expect(failure(await run(["restore", lost, "--data-dir", dir])).lines[0]).toBe(
    `confab: ${lost}.files lacks 1 uploaded file(s) the database names, e.g. uploads/1/abc/gone.txt`,
  );

  expect(hash(join(dir, "confab.db"))).toBe(current);
  expect(existsSync(join(dir, "uploads"))).toBe(false);
}, 120_000);

test("a backup that cannot be proved is removed, not left looking like a backup", async () => {
  const dir = join(tmp.path, "unproved");
  expect((await run(["migrate", "--data-dir", dir])).code).toBe(0);
  // An upload row whose file is gone from the data directory: the copy cannot hold it.
  const db = new Database(join(dir, "confab.db"));
  db.run(
    "INSERT INTO attachments (realm_id, owner_id, path_id, name, content_type, size, create_time) VALUES (1, 1, '1/abc/gone.txt', 'gone.txt', 'text/plain', 5, 0)",
  );
  db.close();
  const out = join(tmp.path, "unproved.db");
  expect(failure(await run(["backup", out, "--data-dir", dir]))).toEqual({
    code: 1,
    lines: [`confab: ${out}.files lacks 1 uploaded file(s) the database names, e.g. uploads/1/abc/gone.txt`],
    stdout: "",
  });
  expect(existsSync(out)).toBe(false);
  expect(existsSync(`${out}.files`)).toBe(false);
}, 60_000);
