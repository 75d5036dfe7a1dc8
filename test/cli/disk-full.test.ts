// A full disk: writes answer 507 INSUFFICIENT_STORAGE (nothing changed, try later), reads keep working
// (GET /messages writes pending delivery rows first), a log on the same full disk stops nothing, and
// nothing answered is lost once space returns. Needs a tmpfs mount (root); without it the test says so.
import { afterAll, expect, test } from "bun:test";
import { closeSync, existsSync, mkdirSync, openSync, readFileSync, rmSync, writeSync } from "node:fs";
import { join } from "node:path";
import { api, cleanEnv, REPO, SOURCE, tempDir, UNLIMITED } from "./run";

const mnt = tempDir("confab-full-");
let mounted = false;
afterAll(() => {
  if (mounted) Bun.spawnSync(["umount", "-l", mnt.path]);
  mnt.remove();
});

function tryMount(): string | null {
  const r = Bun.spawnSync(["mount", "-t", "tmpfs", "-o", "size=32m", "tmpfs", mnt.path], { stderr: "pipe" });
  if (r.exitCode !== 0) return r.stderr.toString().trim() || `exit ${r.exitCode}`;
  mounted = true;
  return null;
}

/** Fills the file system with one file until no byte fits; returns its path. */
function fill(dir: string): string {
  const path = join(dir, "filler");
  const fd = openSync(path, "w");
  const chunk = Buffer.alloc(1 << 16);
  try {
    for (let size = chunk.length; size >= 1; ) {
      try {
        writeSync(fd, chunk, 0, size);
      } catch {
        size >>= 1;
      }
    }
  } finally {
    closeSync(fd);
  }
  return path;
}

test("disk full: 507 for writes, reads answered, log failures harmless, nothing answered lost", async () => {
  const why = tryMount();
  if (why) {
    console.log(`disk-full test skipped: cannot mount a tmpfs here (${why})`);
    return;
  }
  const dataDir = join(mnt.path, "data");
  mkdirSync(dataDir);
  const logPath = join(mnt.path, "confab.log");
  const proc = Bun.spawn([...SOURCE, "serve", "--data-dir", dataDir, "--port", "0"], {
    cwd: REPO,
    env: cleanEnv({ ...UNLIMITED, CONFAB_LOG_LEVEL: "info" }),
    stdout: "pipe",
    stderr: Bun.file(logPath),
  });
  let out = "";
  void (async () => {
    for await (const chunk of proc.stdout as ReadableStream<Uint8Array>) out += new TextDecoder().decode(chunk);
  })();
  try {
    let url: string | undefined;
    const log = () => (existsSync(logPath) ? readFileSync(logPath, "utf8") : "");
    for (const deadline = Date.now() + 60_000; !url && proc.exitCode === null && Date.now() < deadline; ) {
      await Bun.sleep(10);
      url = / listening url=(\S+)/.exec(log())?.[1];
    }
    expect({ started: !!url, exit: proc.exitCode, log: url ? "" : log() }).toEqual({ started: true, exit: null, log: "" });
    for (let i = 0; i < 100 && !/API key:/.test(out); i++) await Bun.sleep(10);
    const owner: [string, string] = [/owner email: +(\S+)/.exec(out)![1]!, /API key: +(\S+)/.exec(out)![1]!];
    const ownerId = (await api(url!, "/users/me", { auth: owner })).body.user_id as number;
    // A member with channel messages waiting for their rows (written lazily, on their next read).
    const made = await api(url!, "/users", { auth: owner, form: { email: "reader@example.com", password: "reader-password", full_name: "Reader" } });
    const reader: [string, string] = [
      "reader@example.com",
      (await api(url!, "/fetch_api_key", { form: { username: "reader@example.com", password: "reader-password" } })).body.api_key,
    ];
    await api(url!, "/users/me/subscriptions", {
      auth: owner,
      form: { subscriptions: '[{"name":"full"}]', principals: JSON.stringify([ownerId, made.body.user_id]) },
    });
    const answered: number[] = [];
    const send = (auth: [string, string], content: string) => api(url!, "/messages", { auth, form: { type: "channel", to: "full", topic: "disk", content } });
    for (let i = 0; i < 3; i++) answered.push((await send(owner, `before ${i}`)).body.id);

    const filler = fill(mnt.path);
    let refused: { status: number; body: any } | undefined;
    for (let i = 0; i < 200 && !refused; i++) {
      const r = await send(owner, `while full ${i} ` + "x".repeat(9000));
      if (r.status === 200) answered.push(r.body.id);
      else refused = r;
    }
    expect(refused).toMatchObject({ status: 507, body: { result: "error", code: "INSUFFICIENT_STORAGE" } });
    expect(proc.exitCode).toBeNull(); // the log file is on the same full disk
    // Reads work while the disk is full, including the one that first writes pending delivery rows.
    const page = await api(url!, `/messages?anchor=newest&num_before=1000&num_after=0&narrow=${encodeURIComponent('[["channel","full"]]')}`, { auth: reader });
    expect(page.status).toBe(200);
    expect((await api(url!, `/messages/${answered[0]}`, { auth: reader })).status).toBe(200);
    expect((await api(url!, "/users/me", { auth: reader })).status).toBe(200);

    rmSync(filler);
    const after = await send(owner, "space is back");
    expect(after.status).toBe(200);
    answered.push(after.body.id);
    const all = await api(url!, `/messages?anchor=newest&num_before=1000&num_after=0&narrow=${encodeURIComponent('[["channel","full"]]')}`, { auth: reader });
    const ids = new Set(all.body.messages.map((m: { id: number }) => m.id));
    for (const id of answered) expect(ids.has(id)).toBe(true);
    expect(proc.exitCode).toBeNull();
  } finally {
    proc.kill("SIGTERM");
    await proc.exited;
  }
}, 90_000);
