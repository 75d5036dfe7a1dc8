// GET /health, GET /metrics and the API rate limits, over HTTP against a real server.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { expectError, ok } from "../helpers/client";
import { sqliteFileOnly, startServer, testStorage, type TestServer } from "../helpers/server";
import { writesOff } from "../../src/domain/errors";
import { takeScheduledBackup } from "../../src/runtime/backups";
import { checkBackup } from "../../src/db/backup";
import { Database } from "bun:sqlite";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { postLogin } from "../helpers/session";

const basic = (email: string | null, key: string | null) => ({ Authorization: "Basic " + Buffer.from(`${email}:${key}`).toString("base64") });

describe("health and metrics", () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startServer();
  });
  afterAll(() => s.stop());

  test("GET /health answers ok and the version, without credentials or organization data", async () => {
    const res = await fetch(`${s.url}/health`);
    expect(res.status).toBe(200);
    const body = (await res.json()) as Record<string, unknown>;
    // The file check is SQLite's; on PostgreSQL there is none of confab's to run.
    const integrity = testStorage === "sqlite" ? expect.stringMatching(/^(pending|ok)$/) : "none";
    expect(body).toEqual({ status: "ok", version: expect.stringContaining("confab"), storage: testStorage, integrity_check: integrity, writes: "on" });
  });

  test("GET /health is red (503) once writes are off, and a write then answers a clear error", async () => {
    const t = await startServer();
    try {
      t.app.writer.refuse(writesOff); // what a failed integrity check does (test/cli/integrity.test.ts)
      const res = await fetch(`${t.url}/health`);
      expect(res.status).toBe(503);
      expect(await res.json()).toMatchObject({ status: "error", writes: "off" });
      const sent = await t.owner.post("/messages", { type: "direct", to: JSON.stringify([t.owner.userId]), content: "x" }, { unchecked: true });
      expect({ status: sent.$status, code: sent.code, msg: sent.msg }).toEqual({ status: 503, code: "BAD_REQUEST", msg: writesOff().message });
      expect((await ok(t.owner.get("/users/me"))).user_id).toBe(t.owner.userId!);
    } finally {
      await t.stop();
    }
  });

  test("GET /metrics from this machine: Prometheus text with requests, queues, commits, storage and memory", async () => {
    const member = await s.newUser();
    await ok(member.get("/users/me"));
    await ok(member.post("/messages", { type: "direct", to: JSON.stringify([s.owner.userId]), content: "hi" }));
    await ok(member.post("/register", { event_types: JSON.stringify(["message"]) }));
    const res = await fetch(`${s.url}/metrics`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toStartWith("text/plain; version=0.0.4");
    const text = await res.text();
    const value = (line: string) =>
      Number(
        text
          .split("\n")
          .find((l) => l.startsWith(line + " "))
          ?.slice(line.length + 1),
      );
    expect(value('confab_http_requests_total{route="GET /users/me",status="200"}')).toBeGreaterThanOrEqual(1);
    expect(value('confab_http_request_duration_seconds_count{route="GET /users/me"}')).toBeGreaterThanOrEqual(1);
    expect(text).toContain('confab_http_request_duration_seconds_bucket{route="GET /users/me",le="+Inf"}');
    expect(value("confab_messages_sent_total")).toBeGreaterThanOrEqual(1);
    expect(value("confab_event_queues")).toBeGreaterThanOrEqual(1);
    expect(value("confab_commit_batch_actions_count")).toBeGreaterThanOrEqual(1);
    if (testStorage === "sqlite") expect(value("confab_database_bytes")).toBeGreaterThan(0); // the SQLite file's size
    expect(value("process_resident_memory_bytes")).toBeGreaterThan(0);
    expect(value("confab_up")).toBe(1);
    for (const name of [
      "confab_longpolls_held",
      "confab_wal_bytes",
      "confab_heap_used_bytes",
      "confab_plugin_restarts_total",
      "confab_agent_runs_started_total",
      "confab_wal_fsync_seconds_count",
    ])
      expect(text).toContain(`\n${name}`);
    // Every sample line is `name{labels} number`: the format Prometheus parses.
    for (const line of text.trimEnd().split("\n")) expect(line).toMatch(/^(# (HELP|TYPE) \w+ .+|\w+(\{[^}]*\})? -?[\d.e+]+)$/);
  });

  test("relayed by a proxy (not local), /metrics needs an administrator's credentials", async () => {
    const relayed = { "X-Forwarded-For": "203.0.113.9" };
    const anon = await fetch(`${s.url}/metrics`, { headers: relayed });
    expect(anon.status).toBe(401);
    const member = await s.newUser();
    const asMember = await fetch(`${s.url}/metrics`, { headers: { ...relayed, ...basic(member.email, member.apiKey) } });
    expect(asMember.status).toBe(403);
    expect(await asMember.json()).toMatchObject({ result: "error", msg: "Must be an organization administrator" });
    const asOwner = await fetch(`${s.url}/metrics`, { headers: { ...relayed, ...basic(s.owner.email, s.owner.apiKey) } });
    expect(asOwner.status).toBe(200);
    expect(await asOwner.text()).toContain("confab_build_info");
  });

  test("metrics.allow_loopback false asks for credentials even locally; metrics.enabled false hides it", async () => {
    const strict = await startServer({ env: { CONFAB_METRICS_ALLOW_LOOPBACK: "false" } });
    const off = await startServer({ env: { CONFAB_METRICS_ENABLED: "false" } });
    try {
      expect((await fetch(`${strict.url}/metrics`)).status).toBe(401);
      expect((await fetch(`${strict.url}/metrics`, { headers: basic(strict.owner.email, strict.owner.apiKey) })).status).toBe(200);
      expect((await fetch(`${off.url}/metrics`)).status).toBe(404);
      expect((await fetch(`${off.url}/health`)).status).toBe(200);
    } finally {
      await strict.stop();
      await off.stop();
    }
  });
});

describe("API rate limits", () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startServer({ env: { CONFAB_RATE_LIMIT_API_BY_USER: '["3/60s"]', CONFAB_RATE_LIMIT_API_BY_IP: '["2/60s"]' } });
  });
  afterAll(() => s.stop());

  test("per user: X-RateLimit-* headers count down, then 429 RATE_LIMIT_HIT with Retry-After; others are unaffected", async () => {
    const ann = await s.newUser();
    const bob = await s.newUser();
    const before = Math.floor(Date.now() / 1000);
    for (let i = 2; i >= 0; i--) {
      const r = await ok(ann.get("/users/me"));
      expect(r.$headers.get("x-ratelimit-limit")).toBe("3");
      expect(r.$headers.get("x-ratelimit-remaining")).toBe(String(i));
      const reset = Number(r.$headers.get("x-ratelimit-reset"));
      expect(reset).toBeGreaterThanOrEqual(before + 59);
      expect(reset).toBeLessThanOrEqual(before + 62);
    }
    const hit = await expectError(ann.get("/users/me"), 429, "RATE_LIMIT_HIT", "API usage exceeded rate limit");
    const wait = Number(hit.$headers.get("retry-after"));
    expect(wait).toBeGreaterThan(0);
    expect(wait).toBeLessThanOrEqual(60);
    expect(hit["retry-after"]).toBe(wait);
    expect(hit.$headers.get("x-ratelimit-remaining")).toBe("0");
    // A refused write changes nothing.
    await expectError(
      ann.post("/messages", { type: "direct", to: JSON.stringify([bob.userId]), content: "over" }),
      429,
      "RATE_LIMIT_HIT",
      "API usage exceeded rate limit",
    );
    const seen = await ok(bob.get("/messages", { anchor: "newest", num_before: 10, num_after: 0, narrow: "[]" }));
    expect(seen.messages.map((m: { content: string }) => m.content)).not.toContain("<p>over</p>");
    expect((await ok(bob.get("/users/me"))).$headers.get("x-ratelimit-remaining")).not.toBe("0");
    const text = await (await fetch(`${s.url}/metrics`)).text();
    expect(text).toMatch(/\nconfab_rate_limited_total [1-9]/);
  });

  test("unauthenticated requests count per client address", async () => {
    await ok(s.anon.get("/server_settings"));
    await ok(s.anon.get("/server_settings"));
    await expectError(s.anon.get("/server_settings"), 429, "RATE_LIMIT_HIT", "API usage exceeded rate limit");
    // An authenticated user from the same address has a budget of its own.
    const carl = await s.newUser();
    await ok(carl.get("/users/me"));
  });
});

describe("scheduled backups", () => {
  // SQLite's file copies; on PostgreSQL backup.schedule is refused (test/unit/config.test.ts).
  test.skipIf(sqliteFileOnly)("the server backs itself up, verified, keeping the newest backup.keep copies; each restores", async () => {
    const s = await startServer({ env: { CONFAB_BACKUP_SCHEDULE: "hourly", CONFAB_BACKUP_KEEP: "2" } });
    try {
      const files: string[] = [];
      for (let hour = 1; hour <= 3; hour++) {
        await ok(s.owner.post("/messages", { type: "direct", to: JSON.stringify([s.owner.userId]), content: `hour ${hour}` }));
        const { file, report, pruned } = takeScheduledBackup(s.app, new Date(Date.UTC(2026, 0, 10, hour)));
        expect(report.exact).toBe(true);
        expect(report.rows).toBeGreaterThan(0);
        expect(pruned).toEqual(hour === 3 ? [files[0]!] : []);
        files.push(file);
      }
      expect(readdirSync(s.app.config.backup.dir).sort()).toEqual(["confab-20260110-020000.db", "confab-20260110-030000.db"]);
      for (const f of files.slice(1)) checkBackup(f);
      const last = new Database(files[2]!, { readonly: true });
      expect(last.query<{ content: string }, []>("SELECT content FROM messages ORDER BY id DESC LIMIT 1").get()?.content).toBe("hour 3");
      last.close();
      // The server goes on answering writes after a backup.
      await ok(s.owner.post("/messages", { type: "direct", to: JSON.stringify([s.owner.userId]), content: "after" }));
    } finally {
      await s.stop();
    }
  });
});

describe("TLS and proxies", () => {
  test("tls.cert and tls.key: confab serves HTTPS itself (a certificate made for this test), and its cookies are Secure", async () => {
    const dir = mkdtempSync(join(tmpdir(), "confab-tls-"));
    const cert = join(dir, "cert.pem");
    const key = join(dir, "key.pem");
    const made = Bun.spawnSync(
      [
        "openssl",
        "req",
        "-x509",
        "-newkey",
        "rsa:2048",
        "-nodes",
        "-days",
        "1",
        "-subj",
        "/CN=localhost",
        "-addext",
        "subjectAltName=IP:127.0.0.1,DNS:localhost",
        "-keyout",
        key,
        "-out",
        cert,
      ],
      { stderr: "pipe" },
    );
    expect(made.exitCode).toBe(0);
    const t = await startServer({ env: { CONFAB_TLS_CERT: cert, CONFAB_TLS_KEY: key } });
    try {
      expect(t.url).toStartWith("https://127.0.0.1:");
      const tls = { ca: readFileSync(cert, "utf8") };
      const res = await fetch(`${t.url}/health`, { tls } as RequestInit);
      expect(res.status).toBe(200);
      // The certificate is checked against the test's own CA: this is real TLS, not a plain socket.
      await expect(fetch(`${t.url}/health`).then((r) => r.status)).rejects.toThrow();
      await expect(fetch(t.url.replace("https:", "http:") + "/health").then((r) => r.status)).rejects.toThrow();
      const login = await fetch(`${t.url}/accounts/login`, {
        method: "POST",
        headers: { "Content-Type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({ username: t.owner.email!, password: t.ownerPassword }).toString(),
        tls,
      } as RequestInit);
      expect(login.status).toBe(200);
      expect(login.headers.getSetCookie().every((c) => c.endsWith("; Secure"))).toBe(true);
    } finally {
      await t.stop();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test("X-Forwarded-Proto: https makes cookies Secure only when a trusted proxy sends it", async () => {
    const trusting = await startServer({ env: { CONFAB_TRUSTED_PROXIES: '["127.0.0.1"]' } });
    const plain = await startServer();
    try {
      const cookies = async (t: TestServer, headers: Record<string, string>) => {
        const res = await postLogin(t.url, t.owner.email!, t.ownerPassword, headers);
        expect(res.status).toBe(200);
        return res.headers.getSetCookie();
      };
      expect((await cookies(trusting, { "X-Forwarded-Proto": "https" })).every((c) => c.endsWith("; Secure"))).toBe(true);
      expect((await cookies(trusting, { "X-Forwarded-Proto": "http" })).some((c) => c.includes("Secure"))).toBe(false);
      expect((await cookies(trusting, {})).some((c) => c.includes("Secure"))).toBe(false);
      // Anyone may send the header; from a peer not listed in trusted_proxies it is ignored.
      expect((await cookies(plain, { "X-Forwarded-Proto": "https" })).some((c) => c.includes("Secure"))).toBe(false);
    } finally {
      await trusting.stop();
      await plain.stop();
    }
  });
});
