// The web client's files at / (http/web-client.ts), here from a `web.dir` directory, and what a new
// organization starts with. The embedded build itself is exercised by the browser tests (test/e2e).
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ok } from "../helpers/client";
import { startServer, type TestServer } from "../helpers/server";
import { signIn } from "../helpers/session";

const dir = mkdtempSync(join(tmpdir(), "confab-webdir-"));
const INDEX = '<!doctype html><html><head><script type="module" src="./chunk-abcd1234.js"></script></head><body>client</body></html>';
const SCRIPT = `console.log(${JSON.stringify("x".repeat(2000))});`;
writeFileSync(join(dir, "index.html"), INDEX);
writeFileSync(join(dir, "chunk-abcd1234.js"), SCRIPT);

let s: TestServer;
beforeAll(async () => {
  s = await startServer({ env: { CONFAB_WEB_DIR: dir }, starterContent: true });
});
afterAll(async () => {
  await s.stop();
  rmSync(dir, { recursive: true, force: true });
});

const get = (path: string, headers: Record<string, string> = {}) => fetch(`${s.url}${path}`, { headers: { "accept-encoding": "identity", ...headers } });

describe("serving", () => {
  test("GET / is the client's page: revalidated by ETag, with a content security policy", async () => {
    const res = await get("/");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toStartWith("text/html");
    expect(await res.text()).toBe(INDEX);
    expect(res.headers.get("cache-control")).toBe("no-cache");
    expect(res.headers.get("content-security-policy")).toContain("default-src 'self'");
    const etag = res.headers.get("etag")!;
    expect(etag).toMatch(/^".+"$/);
    const again = await get("/", { "if-none-match": etag });
    expect(again.status).toBe(304);
    expect(await again.text()).toBe("");
  });

  test("hashed chunks are cached for a year and gzipped when the browser accepts it", async () => {
    const res = await get("/chunk-abcd1234.js", { "accept-encoding": "gzip, deflate, br" });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toStartWith("text/javascript");
    expect(res.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
    expect(res.headers.get("content-encoding")).toBe("gzip");
    expect(Number(res.headers.get("content-length"))).toBeLessThan(SCRIPT.length / 4);
    const plain = await get("/chunk-abcd1234.js");
    expect(plain.headers.get("content-encoding")).toBeNull();
    expect(await plain.text()).toBe(SCRIPT);
  });

  test("a page address the client routes gets its page; API paths keep their JSON 404s; no way out of the directory", async () => {
    expect(await (await get("/narrow/channel/general", { accept: "text/html,application/xhtml+xml" })).text()).toBe(INDEX);
    for (const path of ["/api/v1/no/such/thing", "/json/no/such/thing", "/api/nothing"]) {
      const res = await get(path, { accept: "text/html" });
      expect(res.status).toBe(404);
      expect(await res.json()).toEqual({ result: "error", msg: "Not Found", code: "NOT_FOUND" });
    }
    for (const path of ["/..%2f..%2fetc%2fpasswd", "/%2e%2e/%2e%2e/etc/passwd"]) expect((await get(path)).status).toBe(404);
  });
});

describe("a new organization", () => {
  test("starts with #general and #sandbox, the owner in both, and the welcome bot's note on inviting people", async () => {
    const owner = await signIn(s.url, s.owner.email!, s.ownerPassword);
    const subs = (await ok(owner.get("/users/me/subscriptions"))).subscriptions as { name: string; stream_id: number }[];
    expect(subs.map((x) => x.name).sort()).toEqual(["general", "sandbox"]);
    const defaults = (await ok(owner.post("/register", { fetch_event_types: ["default_streams"] }))).realm_default_streams as number[];
    expect(defaults.sort()).toEqual(subs.map((x) => x.stream_id).sort());
    const { messages } = await ok(
      owner.get("/messages", { anchor: "newest", num_before: 5, num_after: 0, narrow: [{ operator: "channel", operand: "general" }] }),
    );
    expect(messages).toHaveLength(1);
    expect(messages[0]).toMatchObject({ sender_full_name: "Welcome Bot", subject: "welcome to confab", flags: [] });
    expect(messages[0].content).toContain("Invite users");
    // An account an administrator makes later starts in both.
    await ok(s.owner.post("/users", { email: "bob@example.com", password: "bob-password", full_name: "Bob" }));
    const bob = await signIn(s.url, "bob@example.com", "bob-password");
    expect((await ok(bob.get("/users/me/subscriptions"))).subscriptions.map((x: { name: string }) => x.name).sort()).toEqual(["general", "sandbox"]);
  }, 30_000); // four argon2 hashes on a busy machine
});
