// Crashes in the middle of more than sends: a real server process runs a stream of topic edits with
// propagate_mode=change_all, channel moves, uploads, README saves and plugin installs, while `confab
// backup` and `confab import` run beside it; at a random moment the server and those commands get
// SIGKILL. After a restart, whatever was answered is there, nothing half-done is visible (the moved
// topic is whole and in one place, a backup file is complete or absent, an import complete or absent),
// and the database passes integrity_check. Three rounds on the same data directory.
import { Database } from "bun:sqlite";
import { afterAll, expect, test } from "bun:test";
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import * as Y from "yjs";
import { Client, ok } from "../helpers/client";
import { FIXTURES } from "../fixtures/plugins/helpers";
import { startServer } from "../helpers/server";
import { REPO, run, serve, SOURCE, tempDir, type Served } from "./run";

const dir = tempDir("confab-crash-ops-");
afterAll(() => dir.remove());
const dataDir = join(dir.path, "data");
const ROUNDS = 3;
const TOPIC_SIZE = 8;

const b64 = (u: Uint8Array) => Buffer.from(u).toString("base64");
const integrity = (file: string) => {
  const db = new Database(file, { readonly: true });
  try {
    return db.query("PRAGMA integrity_check").all();
  } finally {
    db.close();
  }
};

/** A CLI command in the background, to be killed with the server. */
const spawnCli = (args: string[]) => Bun.spawn([...SOURCE, ...args, "--data-dir", dataDir], { cwd: REPO, stdin: "ignore", stdout: "pipe", stderr: "pipe" });

test("SIGKILL amid change_all edits, channel moves, uploads, README saves, plugin installs, backups and imports loses nothing answered and shows nothing half-done", async () => {
  let srv: Served = await serve(dataDir);
  const email = /owner email:\s+(\S+)/.exec(srv.stdout())![1]!;
  const key = /API key:\s+(\S+)/.exec(srv.stdout())![1]!;
  let owner = new Client(srv.url, email, key);
  const alpha = (await ok(owner.post("/channels/create", { name: "alpha", subscribers: [] }))).id;
  const beta = (await ok(owner.post("/channels/create", { name: "beta", subscribers: [] }))).id;
  const moving: number[] = [];
  for (let i = 0; i < TOPIC_SIZE; i++) moving.push((await ok(owner.post("/messages", { type: "stream", to: alpha, topic: "t0", content: `part ${i}` }))).id);
  // A repository holding a README and a plugin, a workspace on it, and an export to import from.
  const tree = join(dir.path, "tree");
  mkdirSync(tree);
  writeFileSync(join(tree, "README.md"), "# Crash\n");
  cpSync(join(FIXTURES, "silent"), join(tree, "silent"), { recursive: true });
  const repo = (await ok(owner.post("/ext/repositories", { name: "crash" }, { unchecked: true }))).repository.id;
  expect((await run(["repo", "import", "crash", tree, "--data-dir", dataDir])).code).toBe(0);
  const uuid = (await ok(owner.post("/ext/workspaces", { stream_id: alpha, topic: "t0", repository_id: repo }, { unchecked: true }))).workspace.workspace_uuid;
  const exported = join(dir.path, "export");
  expect((await run(["export", exported, "--data-dir", dataDir])).code).toBe(0);

  // What the server answered, over all rounds.
  let place = { stream_id: alpha, subject: "t0" };
  const uploads = new Map<string, string>();
  const readmeLines: string[] = [];
  const plugins: number[] = [];
  const backups: string[] = [];
  const imports: string[] = [];
  let n = 0;
  const failures: string[] = [];

  for (let round = 0; round < ROUNDS; round++) {
    let stop = false;
    let inFlight: typeof place | null = null;
    const cli = new Set<ReturnType<typeof Bun.spawn>>();
    const loop = (step: () => Promise<void>) =>
      (async () => {
        while (!stop)
          try {
            await step();
          } catch (e) {
            if (!stop) failures.push(String(e)); // after `stop`, the server is going away
          }
      })();
    const moves = loop(async () => {
      const next = ++n % 2 ? { stream_id: place.stream_id === alpha ? beta : alpha, subject: place.subject } : { stream_id: place.stream_id, subject: `t${n}` };
      inFlight = next;
      const change = next.stream_id !== place.stream_id ? { stream_id: next.stream_id } : { topic: next.subject };
      await ok(
        owner.patch(`/messages/${moving[n % TOPIC_SIZE]}`, {
          ...change,
          propagate_mode: "change_all",
          send_notification_to_old_thread: false,
          send_notification_to_new_thread: false,
        }),
      );
      place = next;
      inFlight = null;
    });
    const files = loop(async () => {
      const text = `upload ${++n} ${crypto.randomUUID()}`;
      const { url } = await ok(owner.post("/user_uploads", {}, { files: [new File([text], `f${n}.txt`, { type: "text/plain" })] }));
      uploads.set(url, text);
    });
    const readme = loop(async () => {
      const doc = new Y.Doc();
      const client = String(doc.clientID);
      const opened = await ok(owner.post(`/ext/workspaces/${uuid}/readme`, { client }, { unchecked: true }));
      Y.applyUpdate(doc, Buffer.from(opened.state, "base64"));
      const line = `line-${++n}-${crypto.randomUUID()}`;
      const before = Y.encodeStateVector(doc);
      doc.getText("readme").insert(doc.getText("readme").length, line + "\n");
      await ok(owner.patch(`/ext/workspaces/${uuid}/readme`, { client, update: b64(Y.encodeStateAsUpdate(doc, before)) }, { unchecked: true }));
      await ok(owner.delete(`/ext/workspaces/${uuid}/readme`, { client }, { unchecked: true })); // the last one out saves the file
      readmeLines.push(line);
    });
    const installs = loop(async () => {
      plugins.push(
        (await ok(owner.post("/ext/plugins", { source_kind: "local", source_repository_id: repo, source_path: "silent", disabled: true }, { unchecked: true })))
          .plugin.id,
      );
      await Bun.sleep(200);
    });
    const commands = loop(async () => {
      const file = join(dir.path, `backup-${++n}.db`);
      const sub = `imp${n}`;
      const procs = [spawnCli(["backup", file]), spawnCli(["import", exported, "--subdomain", sub])];
      procs.forEach((p) => cli.add(p));
      const [b, i] = await Promise.all(procs.map((p) => p.exited));
      procs.forEach((p) => cli.delete(p));
      if (b === 0) backups.push(file);
      if (i === 0) imports.push(sub);
    });
    // The first round waits until every kind has finished once (so each is known to work), the others
    // kill sooner, mostly while the commands are still running; either way at a random moment.
    const had = [uploads.size, readmeLines.length, plugins.length, backups.length, imports.length];
    const t0 = Date.now();
    if (round === 0)
      while ([uploads.size, readmeLines.length, plugins.length, backups.length, imports.length].some((c, i) => c === had[i]) && Date.now() - t0 < 60_000)
        await Bun.sleep(20);
    else await Bun.sleep(1000);
    await Bun.sleep(Math.random() * 1500);
    stop = true;
    srv.proc.kill("SIGKILL");
    for (const p of cli) p.kill("SIGKILL");
    const inFlightMove = inFlight as typeof place | null;
    await srv.proc.exited;
    await Promise.all([moves, files, readme, installs, commands]);
    expect(failures).toEqual([]);
    expect(integrity(join(dataDir, "confab.db"))).toEqual([{ integrity_check: "ok" }]);

    srv = await serve(dataDir);
    owner = new Client(srv.url, email, key);
    // The topic moved as a whole: every message in one place, the last answered one or the one in flight.
    const got = (await ok(owner.get("/messages", { message_ids: moving, apply_markdown: false }))).messages.map((m: any) => ({
      stream_id: m.stream_id,
      subject: m.subject,
    }));
    expect(got.length).toBe(TOPIC_SIZE);
    expect(new Set(got.map((g: object) => JSON.stringify(g))).size).toBe(1);
    expect([place, inFlightMove].filter(Boolean)).toContainEqual(got[0]);
    place = got[0];
    for (const [url, text] of uploads) expect(await (await fetch(srv.url + url, { headers: { Authorization: owner.auth! } })).text()).toBe(text);
    const readmeText = readFileSync(join(dataDir, "workspaces", uuid, "README.md"), "utf8");
    expect(readmeLines.filter((l) => !readmeText.includes(l + "\n"))).toEqual([]);
    expect(readmeText.split("\n").filter((l) => l && l !== "# Crash" && !/^line-\d+-[0-9a-f-]{36}$/.test(l))).toEqual([]);
    for (const id of plugins) expect((await owner.get(`/ext/plugins/${id}`, {}, { unchecked: true })).$status).toBe(200);
    for (const file of backups) expect(integrity(file)).toEqual([{ integrity_check: "ok" }]);
    // A killed backup leaves no file that looks like one; a killed import, no organization.
    for (let k = 1; k <= n; k++) {
      const file = join(dir.path, `backup-${k}.db`);
      if (existsSync(file) && !backups.includes(file)) expect({ file, check: integrity(file) }).toEqual({ file, check: [{ integrity_check: "ok" }] });
    }
    const realms = JSON.parse((await run(["realm", "list", "--json", "--data-dir", dataDir])).stdout) as { subdomain: string }[];
    const present = realms.map((r) => r.subdomain).filter((sd) => sd.startsWith("imp"));
    expect(imports.filter((sd) => !present.includes(sd))).toEqual([]);
    // Each import present is whole: its messages all arrived (the export held the moving topic's). One
    // killed-but-committed import (rare: the kill mostly lands mid-import) and one answered import are read,
    // so the read itself runs every time. A realm's host is its subdomain of the external URL's host
    // (127.0.0.1 here); any other name is the default realm, where the owner's key is another.
    const killed = present.filter((sd) => !imports.includes(sd));
    for (const sd of [...killed.slice(0, 1), ...imports.slice(-1)]) {
      const k = (await run(["user", "api-key", email, "--realm", sd, "--data-dir", dataDir])).stdout.trim();
      const res = await fetch(`${srv.url}/api/v1/messages?anchor=oldest&num_before=0&num_after=100`, {
        headers: { Authorization: "Basic " + Buffer.from(`${email}:${k}`).toString("base64"), Host: `${sd}.127.0.0.1` },
      });
      expect({ sd, status: res.status }).toEqual({ sd, status: 200 });
      expect(((await res.json()) as { messages: unknown[] }).messages.length).toBeGreaterThanOrEqual(TOPIC_SIZE);
    }
  }
  expect(await srv.stop()).toBe(0);
  // Every kind of operation was caught in the stream at least once.
  expect({
    uploads: uploads.size > 0,
    readme: readmeLines.length > 0,
    plugins: plugins.length > 0,
    backups: backups.length > 0,
    imports: imports.length > 0,
  }).toEqual({
    uploads: true,
    readme: true,
    plugins: true,
    backups: true,
    imports: true,
  });
}, 300_000); // its CPU time is a few seconds; the CLI's start-ups take long on a loaded machine

test("a backup killed the moment its file appears has written a whole one: the file there restores", async () => {
  const srv = await startServer();
  const data = srv.dataDir;
  for (let i = 0; i < 3; i++) await ok(srv.owner.post("/user_uploads", {}, { files: [new File([`file ${i}`], `f${i}.txt`, { type: "text/plain" })] }));
  await srv.stop({ keepData: true });
  {
    const file = join(dir.path, "killed.db");
    const proc = Bun.spawn([...SOURCE, "backup", file, "--data-dir", data], { cwd: REPO, stdin: "ignore", stdout: "ignore", stderr: "ignore" });
    while (!existsSync(file) && proc.exitCode === null) await Bun.sleep(1);
    proc.kill("SIGKILL");
    await proc.exited;
    if (existsSync(file)) {
      const restored = await run(["restore", file, "--data-dir", join(dir.path, "restored")]);
      expect({ code: restored.code, stdout: restored.stdout }).toEqual({ code: 0, stdout: expect.stringContaining("3 uploaded file(s)") });
    }
  }
  rmSync(data, { recursive: true, force: true });
}, 180_000);
