// The plugin host with real child processes (test/fixtures/plugins): waiting until what is required
// arrives, starting → running when the bot makes its first API call, exactly the environment it
// needs, five failures in a row → failed with the last lines, a long enough run forgiving failures,
// restarts on change, removal and restore, remote plugins by health check, a code host over git, and
// no process left behind when the server stops.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { createHash } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { callPluginTool } from "../../src/actions/plugin-tools";
import { defaultRealm } from "../../src/http/realm";
import { git } from "../../src/lib/git";
import { expectError, ok, type Client } from "../helpers/client";
import { drain } from "../helpers/events";
import { waitFor } from "../helpers/wait";
import { startServer, type TestServer } from "../helpers/server";
import { eventually, FIXTURES, fixtureManifest, install, pluginRepository } from "../fixtures/plugins/helpers";

const FAST = {
  CONFAB_PLUGINS_RESTART_DELAY_MS: "20",
  CONFAB_PLUGINS_MAX_RESTART_DELAY_MS: "200",
  CONFAB_PLUGINS_POLL_MS: "50",
  CONFAB_PLUGINS_SHUTDOWN_GRACE_MS: "300",
};

let s: TestServer;
let admin: Client;
let ann: Client;
let repo: number;

beforeAll(async () => {
  process.env.CONFAB_TEST_LEAK = "server-only"; // a variable of the server's own that no plugin may see
  s = await startServer({ env: { ...FAST, CONFAB_PLUGINS_START_TIMEOUT_MS: "5000" } });
  admin = await s.newUser({ role: 200 });
  ann = await s.newUser();
  repo = await pluginRepository(s, {
    flaky: { files: { "run.sh": 'curl -s -o /dev/null -u "$EXT_EMAIL:$EXT_API_KEY" "$EXT_API_URL/users/me"\necho "up a moment"\nsleep 0.4\nexit 1\n' } },
  });
});
afterAll(async () => {
  await s.stop();
  delete process.env.CONFAB_TEST_LEAK;
});

const plugin = async (c: Client, id: number) => (await ok(c.get(`/ext/plugins/${id}`))).plugin;
const until = (id: number, check: (p: any) => boolean, ms?: number) => eventually(() => plugin(ann, id), check, ms);
const logs = async (id: number) => (await ok(admin.get(`/ext/plugins/${id}/logs`, { lines: 1000 }))).lines as string[];
const states = async (c: Client, q: any, id: number) => (await drain(c, q, "ext_plugin")).filter((e) => e.plugin?.id === id).map((e) => e.plugin.state);
const sha16 = (v: string) => createHash("sha256").update(v).digest("hex").slice(0, 16);
const alive = (pid: number) => {
  try {
    return !readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.startsWith("Z");
  } catch {
    return false;
  }
};

describe("an answering plugin", () => {
  let id: number;

  test("waits for its required secret slot and organization secret, then starting → running", async () => {
    const { plugin: p } = await ok(install(admin, repo, "answering", { settings: { mode: "loud" } }));
    id = p.id;
    expect(p).toMatchObject({ state: "waiting", detail: "Missing secret 'TOKEN', organization secret 'SHARED_TOKEN'" });
    await ok(admin.post(`/ext/plugins/${id}/secrets/TOKEN`, { secret: "slot-value-123" }));
    expect(await plugin(ann, id)).toMatchObject({ state: "waiting", detail: "Missing organization secret 'SHARED_TOKEN'" });
    const q = await ok(ann.post("/register", { event_types: ["ext_plugin"] }));
    // An organization secret is not the plugin's own change: the host notices it arrived.
    await ok(ann.post("/ext/secrets", { name: "SHARED_TOKEN", secret: "org-value-456" }));
    await until(id, (x) => x.state === "running");
    expect(await states(ann, q, id)).toEqual(["starting", "running"]);
    expect((await plugin(ann, id)).detail).toBe("");
    const secret = (await ok(ann.get("/ext/secrets"))).secrets.find((x: any) => x.name === "SHARED_TOKEN");
    expect(secret.date_used).toEqual(expect.any(Number));
  });

  test("its environment holds only what it needs: no variable of the server's", async () => {
    // It is running from its first API call; its last line comes just after that call.
    const lines = await eventually(
      () => logs(id),
      (l) => l.includes("cwd: answering"),
    );
    const names = lines
      .find((l) => l.startsWith("env: "))!
      .slice(5)
      .trim()
      .split(" ");
    const shell = new Set(["PWD", "OLDPWD", "SHLVL", "_"]); // set by sh itself
    const locale = (n: string) => n === "LANG" || n === "LANGUAGE" || n.startsWith("LC_");
    expect(names.filter((n) => !shell.has(n) && !locale(n))).toEqual(
      [
        "EXT_API_KEY",
        "EXT_API_URL",
        "EXT_EMAIL",
        "EXT_INSTALL_ID",
        "EXT_SECRET_TOKEN",
        "EXT_SETTINGS",
        "EXT_SITE",
        "EXT_TOOLS_SOCKET",
        "HOME",
        "PATH",
        "SHARED_TOKEN",
        "ZULIP_API_KEY",
        "ZULIP_EMAIL",
        "ZULIP_SITE",
      ].sort(),
    );
    expect(lines).toContain(`token: ${sha16("slot-value-123")}`);
    expect(lines).toContain(`shared: ${sha16("org-value-456")}`);
    expect(lines).toContain('settings: {"branch":"main","interval":60,"mode":"loud"}');
    expect(lines).toContain('"is_bot":true');
    expect(lines).toContain("cwd: answering");
  });

  test("a settings change restarts it with the new settings", async () => {
    const q = await ok(ann.post("/register", { event_types: ["ext_plugin"] }));
    await ok(admin.patch(`/ext/plugins/${id}`, { settings: { interval: 90 } }));
    await eventually(
      () => logs(id),
      (l) => l.includes('settings: {"branch":"main","interval":90,"mode":"loud"}'),
    );
    await until(id, (x) => x.state === "running");
    expect(await states(ann, q, id)).toEqual(["starting", "running"]);
  });

  test("removal ends its process; restore starts it again", async () => {
    const pid = Number(/started pid (\d+)/.exec((await logs(id)).findLast((l) => l.includes("started pid"))!)![1]);
    expect(alive(pid)).toBe(true);
    await ok(admin.delete(`/ext/plugins/${id}`));
    await eventually(
      async () => alive(pid),
      (a) => !a,
    );
    const restored = (await ok(admin.post(`/ext/plugins/${id}/restore`))).plugin;
    expect(restored.state).toBe("starting");
    await until(id, (x) => x.state === "running");
  });

  test("turning it off stops it and it waits; on again, it runs", async () => {
    expect((await ok(admin.patch(`/ext/plugins/${id}`, { disabled: true }))).plugin).toMatchObject({ state: "waiting", detail: "Turned off" });
    expect((await ok(admin.patch(`/ext/plugins/${id}`, { disabled: false }))).plugin.state).toBe("starting");
    await until(id, (x) => x.state === "running");
  });
});

describe("failures", () => {
  test("a plugin that crashes five times in a row ends failed with its last lines in detail", async () => {
    const q = await ok(ann.post("/register", { event_types: ["ext_plugin"] }));
    const { plugin: p } = await ok(install(admin, repo, "crashing"));
    const failed = await until(p.id, (x) => x.state === "failed");
    expect(failed.detail.split("\n")).toEqual(expect.arrayContaining(["cannot open config.yaml", "giving up with code 3"]));
    expect(failed.detail).not.toContain("[confab]");
    const started = (await logs(p.id)).filter((l) => l.startsWith("[confab] started pid"));
    expect(started.length).toBe(5);
    // The last lines: the fifth run's are there (standard output and error may interleave either way).
    expect(failed.detail.split("\n")).toContain(`crasher starting (pid ${started[4]!.split(" ").at(-1)})`);
    // The failed state can be read a moment before its event is out (events wait for the WAL's sync).
    const seen = await waitFor("the plugin's failed event", async () => {
      const s = await states(ann, q, p.id);
      return s.at(-1) === "failed" && s;
    });
    expect(seen[0]).toBe("starting");
    expect(seen).not.toContain("running");
    // Failed stays failed: nothing restarts it.
    await Bun.sleep(200);
    expect((await logs(p.id)).filter((l) => l.startsWith("[confab] started pid")).length).toBe(5);
  });

  test("a run that stays up long enough forgives earlier failures", async () => {
    const t = await startServer({ env: { ...FAST, CONFAB_PLUGINS_HEALTHY_RUN_MS: "150", CONFAB_PLUGINS_START_TIMEOUT_MS: "5000" } });
    try {
      const a = await t.newUser({ role: 200 });
      const r = await pluginRepository(t, {
        flaky: { files: { "run.sh": 'curl -s -o /dev/null -u "$EXT_EMAIL:$EXT_API_KEY" "$EXT_API_URL/users/me"\nsleep 0.4\nexit 1\n' } },
      });
      const { plugin: p } = await ok(install(a, r, "flaky"));
      const starts = async () =>
        (await ok(a.get(`/ext/plugins/${p.id}/logs`, { lines: 1000 }))).lines.filter((l: string) => l.startsWith("[confab] started pid")).length;
      await eventually(starts, (n) => n >= 7, 15_000);
      expect((await ok(a.get(`/ext/plugins/${p.id}`))).plugin.state).not.toBe("failed");
    } finally {
      await t.stop();
    }
  });

  test("without a long enough run, failures add up: one that answers and exits at once fails", async () => {
    // `flaky` answers, stays 0.4 s and exits 1; the healthy run here is a minute.
    const { plugin: p } = await ok(install(admin, repo, "flaky"));
    const failed = await until(p.id, (x) => x.state === "failed", 15_000);
    expect(failed.detail.split("\n")).toContain("up a moment");
  });

  test("one that never answers fails after the start timeout, five times", async () => {
    const t = await startServer({ env: { ...FAST, CONFAB_PLUGINS_START_TIMEOUT_MS: "400" } });
    try {
      const a = await t.newUser({ role: 200 });
      const r = await pluginRepository(t);
      const { plugin: p } = await ok(install(a, r, "silent"));
      const failed = await eventually(
        async () => (await ok(a.get(`/ext/plugins/${p.id}`))).plugin,
        (x) => x.state === "failed",
        15_000,
      );
      expect(failed.detail.split("\n")).toEqual(Array(5).fill("silent is up"));
      const lines = (await ok(a.get(`/ext/plugins/${p.id}/logs`, { lines: 1000 }))).lines;
      expect(lines.filter((l: string) => l === "[confab] no API call within 400 ms").length).toBe(5);
      // Each one was ended: none of the five is still running.
      const pids = lines.filter((l: string) => l.startsWith("[confab] started pid")).map((l: string) => Number(l.split(" ").at(-1)));
      expect(pids.filter(alive)).toEqual([]);
    } finally {
      await t.stop();
    }
  });

  test("a failed plugin is tried again after a change", async () => {
    const { plugin: p } = await ok(install(admin, repo, "crashing"));
    await until(p.id, (x) => x.state === "failed");
    expect((await ok(admin.patch(`/ext/plugins/${p.id}`, { disabled: true }))).plugin.state).toBe("waiting");
    expect((await ok(admin.patch(`/ext/plugins/${p.id}`, { disabled: false }))).plugin.state).toBe("starting");
    await until(p.id, (x) => x.state === "failed");
    expect((await logs(p.id)).filter((l) => l.startsWith("[confab] started pid")).length).toBe(10);
  });
});

describe("tools", () => {
  const TOOLS_TS = `
const server = Bun.serve({
  unix: process.env.EXT_TOOLS_SOCKET,
  async fetch(req) {
    const body = await req.json();
    const tool = new URL(req.url).pathname.split("/").pop();
    if (tool === "explode") return new Response("kaboom", { status: 500 });
    return Response.json({ tool, install_id: body.install_id, echo: body.input });
  },
});
await fetch(process.env.EXT_API_URL + "/users/me", { headers: { Authorization: "Basic " + btoa(process.env.EXT_EMAIL + ":" + process.env.EXT_API_KEY) } });
console.log("tools ready");
`;

  test("the agent calls a running plugin's tools over its socket; declared, not turned off, input checked", async () => {
    const manifest = {
      ...fixtureManifest("silent"),
      id: "toolbox",
      provides: {
        tools: [
          { name: "add", description: "Adds", input: { type: "object", properties: { a: { type: "integer" } }, required: ["a"] } },
          { name: "explode", description: "Fails" },
          { name: "secret", description: "Turned off" },
        ],
      },
      run: { command: [process.execPath, "tools.ts"] },
    };
    const r = await pluginRepository(s, { toolbox: { manifest, files: { "tools.ts": TOOLS_TS } } });
    const { plugin: p } = await ok(install(admin, r, "toolbox"));
    await ok(admin.patch(`/ext/plugins/${p.id}`, { disabled_tools: ["secret"] }));
    const realm = await defaultRealm(s.app);
    await until(p.id, (x) => x.state === "running");
    expect(await callPluginTool(s.app, realm, null, p.id, "add", { a: 2 })).toEqual({ tool: "add", install_id: p.id, echo: { a: 2 } });
    await expect(callPluginTool(s.app, realm, null, p.id, "add", { a: "two" })).rejects.toThrow("Invalid input for tool 'add': /a must be integer");
    await expect(callPluginTool(s.app, realm, null, p.id, "secret", {})).rejects.toThrow("Tool 'secret' is turned off for the agent");
    await expect(callPluginTool(s.app, realm, null, p.id, "nope", {})).rejects.toThrow("Unknown tool 'nope'");
    await expect(callPluginTool(s.app, realm, null, p.id, "explode", {})).rejects.toThrow("Tool 'explode' failed: HTTP 500: kaboom");
    await ok(admin.patch(`/ext/plugins/${p.id}`, { disabled: true }));
    await expect(callPluginTool(s.app, realm, null, p.id, "add", { a: 1 })).rejects.toThrow("Plugin 'Silent' is not running");
  });
});

describe("remote plugins and code hosts", () => {
  test("a remote plugin runs while its health check answers; five misses in a row and it failed", async () => {
    let healthy = true;
    const service = Bun.serve({
      port: 0,
      hostname: "127.0.0.1",
      fetch(req) {
        const path = new URL(req.url).pathname;
        if (path === "/manifest.json") return Response.json({ ...fixtureManifest("silent"), id: "remote-one", name: "Remote one", run: undefined });
        if (path === "/health") return new Response(healthy ? "ok" : "down", { status: healthy ? 200 : 503 });
        return new Response("no", { status: 404 });
      },
    });
    const t = await startServer({ env: { ...FAST, CONFAB_PLUGINS_HEALTH_INTERVAL_MS: "100" } });
    try {
      const a = await t.newUser({ role: 200 });
      const address = `http://127.0.0.1:${service.port}`;
      const { plugin: p } = await ok(a.post("/ext/plugins", { source_kind: "remote", source: address + "/" }));
      expect(p).toMatchObject({ source_kind: "remote", source: address, sha: "", source_repository_id: null, plugin: "remote-one" });
      const get = async () => (await ok(a.get(`/ext/plugins/${p.id}`))).plugin;
      await eventually(get, (x) => x.state === "running");
      healthy = false;
      const failed = await eventually(get, (x) => x.state === "failed", 10_000);
      expect(failed.detail.split("\n")).toEqual(Array(5).fill(`health check of ${address}: HTTP 503`));
      await expectError(
        a.post("/ext/plugins", { source_kind: "remote", source: "ftp://x" }),
        400,
        "BAD_REQUEST",
        "source must be the plugin service's http(s) address",
      );
      await expectError(
        a.post("/ext/plugins", { source_kind: "remote", source: `${address}/nothing` }),
        400,
        "BAD_REQUEST",
        `No manifest.json in ${address}/nothing`,
      );
    } finally {
      await t.stop();
      service.stop(true);
    }
  });

  test("a code host from the config: cloned over git, pinned at a commit", async () => {
    const hosts = mkdtempSync(join(tmpdir(), "confab-codehost-"));
    const work = join(hosts, "acme", "tools");
    const env = { GIT_AUTHOR_NAME: "T", GIT_AUTHOR_EMAIL: "t@t", GIT_COMMITTER_NAME: "T", GIT_COMMITTER_EMAIL: "t@t" };
    await git(["init", "--quiet", "--initial-branch=main", work]);
    await Bun.$`cp -r ${join(FIXTURES, "silent")} ${work}/silent`.quiet();
    await git(["add", "."], { cwd: work });
    await git(["commit", "--quiet", "-m", "silent"], { cwd: work, env });
    const sha = (await git(["rev-parse", "HEAD"], { cwd: work })).trim();
    const t = await startServer({ env: { ...FAST, CONFAB_PLUGINS_CODEHOSTS: JSON.stringify([`here=file://${hosts}`]) } });
    try {
      const a = await t.newUser({ role: 200 });
      const { plugin: p } = await ok(
        a.post("/ext/plugins", { source_kind: "codehost", source: "here/acme/tools", source_path: "silent", sha: sha.slice(0, 10) }),
      );
      expect(p).toMatchObject({
        source_kind: "codehost",
        source: "here/acme/tools",
        sha,
        source_path: "silent",
        source_repository_id: null,
        state: "starting",
      });
      await eventually(
        async () => (await ok(a.get(`/ext/plugins/${p.id}/logs`))).lines,
        (l) => l.includes("silent is up"),
      );
      await expectError(a.post("/ext/plugins", { source_kind: "codehost", source: "there/acme/tools", sha }), 400, "BAD_REQUEST", "Unknown code host 'there'");
      await expectError(a.post("/ext/plugins", { source_kind: "codehost", source: "here/acme/tools" }), 400, "BAD_REQUEST", "Missing 'sha' argument");
      await expectError(
        a.post("/ext/plugins", { source_kind: "codehost", source: "acme/tools", sha }),
        400,
        "BAD_REQUEST",
        "source must be <codehost>/<owner>/<repository>",
      );
      await expectError(
        a.post("/ext/plugins", { source_kind: "codehost", source: "here/acme/nope", sha }),
        400,
        "BAD_REQUEST",
        /^Could not fetch here\/acme\/nope: /,
      );
    } finally {
      await t.stop();
      rmSync(hosts, { recursive: true, force: true });
    }
  });
});

describe("shutdown", () => {
  test("no child process outlives the server, even one that ignores SIGTERM and left a child of its own", async () => {
    const t = await startServer({ env: { ...FAST, CONFAB_PLUGINS_SHUTDOWN_GRACE_MS: "200" } });
    const a = await t.newUser({ role: 200 });
    const r = await pluginRepository(t);
    const ids: number[] = [];
    for (const name of ["stubborn", "silent", "answering"]) ids.push((await ok(install(a, r, name))).plugin.id);
    const get = async (id: number) => (await ok(a.get(`/ext/plugins/${id}`))).plugin;
    await eventually(
      () => get(ids[0]!),
      (x) => x.state === "running",
    );
    const lines = async (id: number) => (await ok(a.get(`/ext/plugins/${id}/logs`, { lines: 1000 }))).lines as string[];
    const stubborn = await eventually(
      () => lines(ids[0]!),
      (l) => l.some((x) => x.startsWith("grandchild ")),
    );
    const pids = [
      Number(
        stubborn
          .find((l) => l.startsWith("[confab] started pid"))!
          .split(" ")
          .at(-1),
      ),
      Number(stubborn.find((l) => l.startsWith("grandchild "))!.split(" ")[1]),
    ];
    const silent = await eventually(
      () => lines(ids[1]!),
      (l) => l.includes("silent is up"),
    );
    pids.push(
      Number(
        silent
          .find((l) => l.startsWith("[confab] started pid"))!
          .split(" ")
          .at(-1),
      ),
    );
    expect(pids.filter(alive)).toEqual(pids);
    await t.stop();
    expect(pids.filter(alive)).toEqual([]);
  });
});
