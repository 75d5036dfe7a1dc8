import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import http from "node:http";
import { createRealm, setRealmDeactivated } from "../../src/actions/realms";
import { deactivateUser } from "../../src/actions/users";
import { findRealmById } from "../../src/store/realms";
import { findUserById } from "../../src/store/users";
import { Client, expectError, ok } from "../helpers/client";
import { startServer, type TestServer } from "../helpers/server";

let s: TestServer;
beforeAll(async () => {
  // Many tests here fail authentication on purpose, all from 127.0.0.1: the limiter is tested on its own server.
  s = await startServer({ env: { CONFAB_DEVELOPMENT: "true", CONFAB_RATE_LIMIT_AUTH_FAILURES: "1000" } });
});
afterAll(() => s.stop());

describe("server_settings", () => {
  test("answers without credentials, with the contract's service_* names and Zulip's", async () => {
    const r = await ok(s.anon.get("/server_settings"));
    expect(r.realm_name).toBe("Confab");
    expect(r.realm_url).toBe(s.url);
    expect(r.realm_uri).toBe(r.realm_url);
    expect(r.service_feature_level).toBe(496);
    expect(r.zulip_feature_level).toBe(r.service_feature_level);
    expect(r.zulip_version).toBe(r.service_version);
    expect(r.zulip_merge_base).toBe(r.service_merge_base);
    expect(r.authentication_methods).toMatchObject({ password: true, dev: true, "openid connect": false });
  });
});

describe("users/me", () => {
  test("the owner", async () => {
    const me = await ok(s.owner.get("/users/me"));
    expect(me).toMatchObject({ user_id: s.owner.userId, email: s.owner.email, role: 100, is_owner: true, is_admin: true, is_bot: false });
  });
});

/** A request sent from a chosen loopback address (127.0.0.0/8), as a distinct client would. */
/** A request from a given local address: GET with HTTP Basic, or a form POST without credentials. */
function fromAddress(server: TestServer, localAddress: string, path: string, auth: { email: string; key: string } | { form: Record<string, string> }) {
  const url = new URL(server.url);
  const body = "form" in auth ? new URLSearchParams(auth.form).toString() : undefined;
  return new Promise<{ status: number; headers: http.IncomingHttpHeaders; body: any }>((resolve, reject) => {
    const req = http.request(
      {
        host: url.hostname,
        port: url.port,
        path: `/api/v1${path}`,
        localAddress,
        method: body === undefined ? "GET" : "POST",
        headers:
          "form" in auth
            ? { "content-type": "application/x-www-form-urlencoded" }
            : { Authorization: "Basic " + Buffer.from(`${auth.email}:${auth.key}`).toString("base64") },
      },
      (res) => {
        let text = "";
        res.on("data", (c) => (text += c));
        res.on("end", () => resolve({ status: res.statusCode!, headers: res.headers, body: JSON.parse(text) }));
      },
    );
    req.on("error", reject);
    req.end(body);
  });
}

const row = async (server: TestServer, c: Client) => (await findUserById(server.app.db, c.userId!))!;

describe("request parameters", () => {
  test("malformed JSON in a list parameter", async () => {
    await expectError(s.owner.get("/users", { user_ids: "[1," }), 400, "BAD_REQUEST", "user_ids is not valid JSON");
    await expectError(s.owner.get("/users", { user_ids: "x" }), 400, "BAD_REQUEST", "user_ids is not valid JSON");
  });

  test("wrong types: not a list, items not integers, a non-boolean flag", async () => {
    await expectError(s.owner.get("/users", { user_ids: '"x"' }), 400, "BAD_REQUEST", "user_ids is not a list");
    await expectError(s.owner.get("/users", { user_ids: '["a"]' }), 400, "BAD_REQUEST", "user_ids[0] is not an integer");
    await expectError(s.owner.get("/users", { user_ids: "[1, 2.5]" }), 400, "BAD_REQUEST", "user_ids[1] is not an integer");
    await expectError(s.owner.get("/users", { client_gravatar: "yes" }), 400, "BAD_REQUEST", "client_gravatar is not valid JSON");
    await expectError(s.owner.get("/users", { client_gravatar: "1" }), 400, "BAD_REQUEST", "client_gravatar is not a boolean");
    await expectError(s.owner.get("/users/abc"), 400, "BAD_REQUEST", "No such user");
  });

  test("a list parameter that parses selects exactly those users", async () => {
    const u = await s.newUser();
    const r = await ok(s.owner.get("/users", { user_ids: [u.userId] }));
    expect(r.members.map((m: any) => m.user_id)).toEqual([u.userId]);
  });

  test("a missing required parameter", async () => {
    const e = await expectError(s.anon.post("/fetch_api_key", { username: s.owner.email! }), 400, "REQUEST_VARIABLE_MISSING", "Missing 'password' argument");
    expect(e.var_name).toBe("password");
  });

  test("unknown parameters are listed, sorted, in ignored_parameters_unsupported; known ones are not", async () => {
    const r = await ok(s.owner.get("/users/me", { zebra: "1", apple: "2", Mango: "3" }));
    expect(r.ignored_parameters_unsupported).toEqual(["Mango", "apple", "zebra"]);
    const plain = await ok(s.owner.get("/users", { client_gravatar: false }));
    expect(plain.ignored_parameters_unsupported).toBeUndefined();
  });

  test("a JSON body and a multipart body are read like a form", async () => {
    const u = await s.newUser({ password: "correct horse battery" });
    const json = await ok(s.anon.post("/fetch_api_key", { username: u.email!, password: "correct horse battery", extra: 1 }, { json: true }));
    expect(json).toMatchObject({ api_key: u.apiKey, email: u.email, user_id: u.userId, ignored_parameters_unsupported: ["extra"] });

    const form = new FormData();
    form.set("username", u.email!);
    form.set("password", "correct horse battery");
    const res = await fetch(`${s.url}/api/v1/fetch_api_key`, { method: "POST", body: form });
    expect({ status: res.status, body: await res.json() }).toEqual({
      status: 200,
      body: { result: "success", msg: "", api_key: u.apiKey!, email: u.email!, user_id: u.userId! },
    });
  });

  test("a JSON body that is not an object", async () => {
    const res = await fetch(`${s.url}/api/v1/fetch_api_key`, { method: "POST", headers: { "Content-Type": "application/json" }, body: "[1," });
    expect({ status: res.status, body: await res.json() }).toEqual({
      status: 400,
      body: { result: "error", msg: "Malformed request body", code: "BAD_REQUEST" },
    });
  });
});

describe("routing", () => {
  test("an unknown endpoint is a JSON 404", async () => {
    await expectError(s.owner.get("/no_such_endpoint"), 404, "NOT_FOUND", "Not Found");
    await expectError(s.owner.post("/users/me/no/such/thing"), 404, "NOT_FOUND", "Not Found");
    await expectError(s.owner.get("/users/me/"), 404, "NOT_FOUND", "Not Found");
  });

  test("a known path with another method is a 405 naming the allowed methods", async () => {
    const e = await expectError(s.owner.patch("/users/me/alert_words"), 405, "METHOD_NOT_ALLOWED", "Method Not Allowed");
    expect(e.allowed_methods).toEqual(["GET", "POST", "DELETE"]);
    expect(e.$headers.get("allow")).toBe("GET, POST, DELETE");
    const f = await expectError(s.owner.get("/fetch_api_key"), 405, "METHOD_NOT_ALLOWED", "Method Not Allowed");
    expect(f.allowed_methods).toEqual(["POST"]);
  });
});

describe("authentication", () => {
  test("no credentials: 401 UNAUTHORIZED with WWW-Authenticate", async () => {
    const e = await expectError(s.anon.get("/users/me"), 401, "UNAUTHORIZED", "Not logged in: API authentication or user session required");
    expect(e.$headers.get("www-authenticate")).toBe('Basic realm="zulip"');
  });

  test("a wrong API key, an unknown email: 401 INVALID_API_KEY with WWW-Authenticate", async () => {
    const e = await expectError(s.client(s.owner.email!, "x".repeat(32)).get("/users/me"), 401, "INVALID_API_KEY", "Invalid API key");
    expect(e.$headers.get("www-authenticate")).toBe('Basic realm="zulip"');
    await expectError(s.client("nobody@example.com", s.owner.apiKey!).get("/users/me"), 401, "INVALID_API_KEY", "Invalid API key");
  });

  test("malformed Authorization headers", async () => {
    const e = await expectError(
      s.anon.get("/users/me", {}, { headers: { Authorization: "Basic" } }),
      401,
      "UNAUTHORIZED",
      "Invalid authorization header for basic auth",
    );
    expect(e.$headers.get("www-authenticate")).toBe('Basic realm="zulip"');
    const noColon = "Basic " + Buffer.from("just-an-email").toString("base64");
    await expectError(s.anon.get("/users/me", {}, { headers: { Authorization: noColon } }), 401, "UNAUTHORIZED", "Invalid authorization header for basic auth");
    await expectError(
      s.anon.get("/users/me", {}, { headers: { Authorization: "Bearer abc" } }),
      400,
      "BAD_REQUEST",
      "This endpoint requires HTTP basic authentication.",
    );
  });

  test("the email is matched without regard to case", async () => {
    const me = await ok(s.client(s.owner.email!.toUpperCase(), s.owner.apiKey!).get("/users/me"));
    expect(me.user_id).toBe(s.owner.userId);
  });

  test("a deactivated user: 401 USER_DEACTIVATED, for API keys, passwords and dev login alike", async () => {
    const u = await s.newUser({ password: "a good password" });
    await ok(u.get("/users/me"));
    await deactivateUser(s.app, await row(s, u));
    await expectError(u.get("/users/me"), 401, "USER_DEACTIVATED", "Account is deactivated");
    await expectError(s.anon.post("/fetch_api_key", { username: u.email!, password: "a good password" }), 401, "USER_DEACTIVATED", "Account is deactivated");
    await expectError(s.anon.post("/dev_fetch_api_key", { username: u.email! }), 401, "USER_DEACTIVATED", "Account is deactivated");
  });

  test("fetch_api_key: the key for the right password, AUTHENTICATION_FAILED otherwise", async () => {
    const u = await s.newUser({ password: "swordfish-42" });
    const r = await ok(s.anon.post("/fetch_api_key", { username: u.email!, password: "swordfish-42" }));
    expect(r).toMatchObject({ api_key: u.apiKey, email: u.email, user_id: u.userId });
    const msg = "Your username or password is incorrect";
    await expectError(s.anon.post("/fetch_api_key", { username: u.email!, password: "swordfish-43" }), 401, "AUTHENTICATION_FAILED", msg);
    await expectError(s.anon.post("/fetch_api_key", { username: "ghost@example.com", password: "x" }), 401, "AUTHENTICATION_FAILED", msg);
    // A user without a password cannot log in with any.
    const nopw = await s.newUser();
    await expectError(s.anon.post("/fetch_api_key", { username: nopw.email!, password: "" }), 401, "AUTHENTICATION_FAILED", msg);
  });

  test("dev_fetch_api_key in development mode", async () => {
    const r = await ok(s.anon.post("/dev_fetch_api_key", { username: s.owner.email! }));
    expect(r).toMatchObject({ api_key: s.owner.apiKey, email: s.owner.email, user_id: s.owner.userId });
    await expectError(
      s.anon.post("/dev_fetch_api_key", { username: "ghost@example.com" }),
      401,
      "AUTHENTICATION_FAILED",
      "Your username or password is incorrect",
    );
  });
});

describe("a production server with several realms", () => {
  let prod: TestServer;
  const logLines: string[] = [];
  let port: string;
  beforeAll(async () => {
    // Subdomains hang off the external URL's host; requests go to 127.0.0.1 with a Host header naming one.
    prod = await startServer({ env: { CONFAB_EXTERNAL_URL: "http://confab.test", CONFAB_LOG_LEVEL: "info" }, log: (l) => logLines.push(l) });
    port = new URL(prod.url).port;
  });
  afterAll(() => prod.stop());
  const host = (sub: string) => ({ headers: { Host: `${sub ? sub + "." : ""}confab.test:${port}` } });

  test("dev_fetch_api_key is refused outside development mode", async () => {
    await expectError(prod.anon.post("/dev_fetch_api_key", { username: prod.owner.email! }), 400, "BAD_REQUEST", "Endpoint not available in production.");
    const settings = await ok(prod.anon.get("/server_settings"));
    expect(settings.authentication_methods.dev).toBe(false);
  });

  test("the Host header's subdomain picks the realm; the bare host and IP addresses get the default realm", async () => {
    const acme = await createRealm(prod.app, {
      stringId: "acme",
      name: "Acme Corp",
      ownerEmail: "boss@acme.test",
      ownerName: "Boss",
      ownerPassword: "acme-secret",
    });
    const root = await ok(prod.anon.get("/server_settings", {}, host("")));
    expect({ name: root.realm_name, url: root.realm_url }).toEqual({ name: "Confab", url: "http://confab.test" });
    expect((await ok(prod.anon.get("/server_settings"))).realm_name).toBe("Confab"); // Host: 127.0.0.1:port
    const sub = await ok(prod.anon.get("/server_settings", {}, host("acme")));
    expect({ name: sub.realm_name, url: sub.realm_url }).toEqual({ name: "Acme Corp", url: "http://acme.confab.test" });

    // Users and keys belong to their realm: acme's owner is unknown on the default realm and vice versa.
    const boss = prod.client("boss@acme.test", acme.owner.apiKey);
    expect((await ok(boss.get("/users/me", {}, host("acme")))).user_id).toBe(acme.owner.id);
    await expectError(boss.get("/users/me", {}, host("")), 401, "INVALID_API_KEY", "Invalid API key");
    await expectError(prod.owner.get("/users/me", {}, host("acme")), 401, "INVALID_API_KEY", "Invalid API key");
    const members = await ok(boss.get("/users", {}, host("acme")));
    expect(members.members.filter((m: any) => !m.is_bot).map((m: any) => m.email)).toEqual(["boss@acme.test"]);
    const key = await ok(prod.anon.post("/fetch_api_key", { username: "boss@acme.test", password: "acme-secret" }, host("acme")));
    expect(key.api_key).toBe(acme.owner.apiKey);
    await expectError(
      prod.anon.post("/fetch_api_key", { username: "boss@acme.test", password: "acme-secret" }),
      401,
      "AUTHENTICATION_FAILED",
      "Your username or password is incorrect",
    );
  });

  test("a subdomain with no realm", async () => {
    await expectError(prod.anon.get("/server_settings", {}, host("nowhere")), 404, "NONEXISTENT_SUBDOMAIN", "Invalid subdomain");
  });

  test("a deactivated realm: 401 REALM_DEACTIVATED for its users; reactivated, they are back", async () => {
    const closed = await createRealm(prod.app, { stringId: "closed", name: "Closed", ownerEmail: "o@closed.test", ownerName: "O", ownerPassword: "closed-pw" });
    const o = prod.client("o@closed.test", closed.owner.apiKey);
    const q = await ok(o.post("/register", { event_types: ["realm_user"] }, host("closed")));
    await setRealmDeactivated(prod.app, closed.realm, true);
    const e = await expectError(o.get("/users/me", {}, host("closed")), 401, "REALM_DEACTIVATED", "This organization has been deactivated");
    expect(e.$headers.get("www-authenticate")).toBe('Basic realm="zulip"');
    await expectError(
      prod.anon.post("/fetch_api_key", { username: "o@closed.test", password: "closed-pw" }, host("closed")),
      401,
      "REALM_DEACTIVATED",
      "This organization has been deactivated",
    );
    // Its event queues are gone: after reactivation the client must register again.
    await setRealmDeactivated(prod.app, (await findRealmById(prod.app.db, closed.realm.id))!, false);
    await expectError(
      o.get("/events", { queue_id: q.queue_id, last_event_id: -1, dont_block: true }, host("closed")),
      400,
      "BAD_EVENT_QUEUE_ID",
      `Bad event queue ID: ${q.queue_id}`,
    );
    expect((await ok(o.get("/users/me", {}, host("closed")))).user_id).toBe(closed.owner.id);
  });

  test("one log line per request, with method, path, status, time and user; never a password or API key", async () => {
    logLines.length = 0;
    const u = await prod.newUser({ password: "hunter2-secret-pw" });
    await ok(u.get("/users/me", { note: "hello" }));
    await expectError(prod.client(u.email!, "WrongKey".repeat(4)).get("/users/me"), 401, "INVALID_API_KEY", "Invalid API key");
    await ok(prod.anon.post("/fetch_api_key", { username: u.email!, password: "hunter2-secret-pw" }));
    await expectError(
      prod.anon.post("/fetch_api_key", { username: u.email!, password: "wrong-secret-pw" }),
      401,
      "AUTHENTICATION_FAILED",
      "Your username or password is incorrect",
    );
    await ok(prod.anon.get("/server_settings", { api_key: u.apiKey! }));

    const requests = logLines.filter((l) => / info request /.test(l));
    expect(requests).toHaveLength(5);
    expect(requests[0]).toMatch(new RegExp(`^\\S+ info request method=GET path=/api/v1/users/me status=200 ms=[\\d.]+ user=${u.userId}$`));
    expect(requests[1]).toMatch(/ method=GET path=\/api\/v1\/users\/me status=401 ms=[\d.]+ user=-$/);
    expect(requests[3]).toMatch(/ method=POST path=\/api\/v1\/fetch_api_key status=401 /);
    const all = logLines.join("\n");
    for (const secret of [u.apiKey!, "WrongKey", "hunter2-secret-pw", "wrong-secret-pw", Buffer.from(`${u.email}:${u.apiKey}`).toString("base64")])
      expect(all).not.toContain(secret);
  });
});

describe("rate limiting of failed authentication", () => {
  let lim: TestServer;
  beforeAll(async () => {
    lim = await startServer({ env: { CONFAB_RATE_LIMIT_AUTH_FAILURES: "3" } });
  });
  afterAll(() => lim.stop());

  test("per client address: after 3 failures further failing attempts from it get 429; a valid key from it still works", async () => {
    const good = { email: lim.owner.email!, key: lim.owner.apiKey! };
    for (const i of [1, 2, 3]) {
      const r = await fromAddress(lim, "127.0.0.11", "/users/me", { email: `guess${i}@example.com`, key: "k".repeat(32) });
      expect({ status: r.status, code: r.body.code }).toEqual({ status: 401, code: "INVALID_API_KEY" });
    }
    const blocked = await fromAddress(lim, "127.0.0.11", "/users/me", { email: "guess4@example.com", key: "k".repeat(32) });
    expect({ status: blocked.status, code: blocked.body.code, msg: blocked.body.msg }).toEqual({
      status: 429,
      code: "RATE_LIMIT_HIT",
      msg: "API usage exceeded rate limit",
    });
    const retry = Number(blocked.headers["retry-after"]);
    expect(retry).toBeGreaterThan(0);
    expect(retry).toBeLessThanOrEqual(60);
    expect(blocked.body["retry-after"]).toBe(retry);
    expect((await fromAddress(lim, "127.0.0.11", "/users/me", good)).status).toBe(200);
    expect((await fromAddress(lim, "127.0.0.12", "/users/me", good)).status).toBe(200);
  });

  test("per account: 3 failures for one account from different addresses throttle further failures for it, never its valid key", async () => {
    const victim = await lim.newUser();
    for (const addr of ["127.0.0.21", "127.0.0.22", "127.0.0.23"]) {
      const r = await fromAddress(lim, addr, "/users/me", { email: victim.email!, key: "k".repeat(32) });
      expect(r.status).toBe(401);
    }
    const locked = await fromAddress(lim, "127.0.0.24", "/users/me", { email: victim.email!, key: "j".repeat(32) });
    expect({ status: locked.status, code: locked.body.code }).toEqual({ status: 429, code: "RATE_LIMIT_HIT" });
    expect(Number(locked.headers["retry-after"])).toBe(locked.body["retry-after"]);
    expect((await fromAddress(lim, "127.0.0.24", "/users/me", { email: victim.email!, key: victim.apiKey! })).status).toBe(200);
  });

  test("password logins count too: the failing address is refused, the account's password still works from elsewhere", async () => {
    const u = await lim.newUser({ password: "right-password" });
    for (let i = 0; i < 3; i++)
      await expectError(
        lim.anon.post("/fetch_api_key", { username: u.email!, password: "wrong" }),
        401,
        "AUTHENTICATION_FAILED",
        "Your username or password is incorrect",
      );
    const e = await expectError(
      lim.anon.post("/fetch_api_key", { username: u.email!, password: "right-password" }),
      429,
      "RATE_LIMIT_HIT",
      "API usage exceeded rate limit",
    );
    expect(e.$headers.get("retry-after")).toBe(String(e["retry-after"]));
    const elsewhere = await fromAddress(lim, "127.0.0.31", "/fetch_api_key", { form: { username: u.email!, password: "right-password" } });
    expect(elsewhere.status).toBe(200);
  });
});

describe("server_settings, realm fields", () => {
  test("the description rendered as Markdown, the icon served, web-public access once a web-public channel exists", async () => {
    const g = await startServer();
    try {
      await ok(g.owner.patch("/realm", { description: "We **build** things" }));
      const r = await ok(g.anon.get("/server_settings"));
      expect(r.realm_description).toBe("<p>We <strong>build</strong> things</p>");
      const icon = await fetch(r.realm_icon);
      expect(icon.status).toBe(200);
      expect(icon.headers.get("content-type")).toBe("image/png"); // raster: zulip-flutter cannot show SVG
      expect(r.realm_web_public_access_enabled).toBe(false);
      await ok(g.owner.patch("/realm", { enable_spectator_access: true }));
      expect((await ok(g.anon.get("/server_settings"))).realm_web_public_access_enabled).toBe(false);
      await ok(g.owner.post("/channels/create", { name: "open", subscribers: [g.owner.userId], is_web_public: true }));
      expect((await ok(g.anon.get("/server_settings"))).realm_web_public_access_enabled).toBe(true);
    } finally {
      await g.stop();
    }
  });
});
