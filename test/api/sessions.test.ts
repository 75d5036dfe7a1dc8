// The web client's sessions (docs/sessions.md): cookie sign-in, /json with CSRF, revocation, and the
// same route table under /json as under /api/v1.
import { raw as sqlOn } from "../../src/db/raw";
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { setPassword } from "../../src/actions/users";
import { findUserById } from "../../src/store/users";
import { expectError, ok } from "../helpers/client";
import { startServer, type TestServer } from "../helpers/server";
import { cookiesFrom, postLogin, SessionClient, signIn } from "../helpers/session";
import { run } from "../cli/run";

// Every sign-in verifies an argon2 hash, and most tests make a user with a password first.
setDefaultTimeout(30_000);

let s: TestServer;
const logLines: string[] = [];
beforeAll(async () => {
  s = await startServer({ env: { CONFAB_LOG_LEVEL: "debug" }, log: (l) => logLines.push(l), starterContent: true });
});
afterAll(() => s.stop());

let n = 0;
/** A member with a password, signed in from a browser. */
async function member(role = 400) {
  const email = `browser${++n}@example.com`;
  const api = await s.newUser({ email, password: "correct horse", role: role as never });
  return { api, email, browser: await signIn(s.url, email, "correct horse") };
}

const raw = (path: string, init: RequestInit = {}) => fetch(`${s.url}${path}`, init);

describe("POST /accounts/login", () => {
  test("sets an HttpOnly session cookie and a readable CSRF cookie; the answer holds no secret", async () => {
    const { api, email } = await member();
    const res = await postLogin(s.url, email, "correct horse");
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body).toEqual({ result: "success", msg: "", user_id: api.userId, email });
    const c = cookiesFrom(res);
    expect(c.get("confab_session")!.value).toMatch(/^[A-Za-z0-9]{43}$/);
    expect(c.get("confab_session")!.attrs).toBe("Path=/; Max-Age=1209600; SameSite=Lax; HttpOnly");
    expect(c.get("csrftoken")!.attrs).toBe("Path=/; Max-Age=1209600; SameSite=Lax");
    expect(res.headers.get("cache-control")).toBe("no-store");
    // The token is stored only as its hash.
    const stored = await sqlOn(s.app.db).all<{ token_hash: string }>("SELECT token_hash FROM sessions");
    expect(stored.map((r) => r.token_hash)).not.toContain(c.get("confab_session")!.value);
  });

  test("takes JSON as well as a form", async () => {
    const { email } = await member();
    const res = await raw("/accounts/login", {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ username: email, password: "correct horse" }),
    });
    expect(res.status).toBe(200);
    expect(cookiesFrom(res).has("confab_session")).toBe(true);
  });

  test("a wrong password or unknown email is a 401 without cookies; a missing field is named", async () => {
    const { email } = await member();
    for (const [u, p] of [
      [email, "wrong"],
      ["nobody@example.com", "x"],
    ]) {
      const res = await postLogin(s.url, u!, p!);
      expect(res.status).toBe(401);
      expect(await res.json()).toEqual({ result: "error", msg: "Your username or password is incorrect", code: "AUTHENTICATION_FAILED" });
      expect(res.headers.getSetCookie()).toEqual([]);
    }
    const missing = await raw("/accounts/login", { method: "POST", body: new URLSearchParams({ username: email }) });
    expect(await missing.json()).toEqual({ result: "error", msg: "Missing 'password' argument", code: "REQUEST_VARIABLE_MISSING", var_name: "password" });
  });

  test("a sign-in posted from another site's page is refused (Origin)", async () => {
    const { email } = await member();
    const res = await postLogin(s.url, email, "correct horse", { Origin: "https://evil.example" });
    expect(res.status).toBe(403);
    expect(await res.json()).toMatchObject({ result: "error", code: "CSRF_FAILED" });
    expect((await postLogin(s.url, email, "correct horse", { Origin: s.url })).status).toBe(200);
  });

  test("a deactivated account cannot sign in", async () => {
    const { api, email } = await member();
    await ok(s.owner.delete(`/users/${api.userId}`));
    const res = await postLogin(s.url, email, "correct horse");
    expect(res.status).toBe(401);
    expect(await res.json()).toMatchObject({ code: "USER_DEACTIVATED" });
  });
});

describe("/json", () => {
  test("answers like /api/v1 for the same user", async () => {
    const { api, browser } = await member();
    const [a, b] = [await ok(api.get("/users/me")), await ok(browser.get("/users/me"))];
    expect(b).toEqual(a);
    const sent = await ok(browser.post("/messages", { type: "stream", to: "general", topic: "from the browser", content: "hello" }));
    const fetched = await ok(api.get("/messages", { anchor: sent.id, num_before: 0, num_after: 0, narrow: [] }));
    expect(fetched.messages[0]).toMatchObject({ id: sent.id, sender_id: api.userId, content: "<p>hello</p>" });
    expect(await ok(browser.get("/messages", { anchor: sent.id, num_before: 0, num_after: 0, narrow: [] }))).toEqual(fetched);
    // Errors and 405s are the same too.
    await expectError(browser.get("/users/999999"), 400, "BAD_REQUEST", "No such user");
    const put = await raw("/json/users/me", { method: "PUT", headers: { Cookie: browser.cookieHeader, "X-CSRFToken": browser.csrf } });
    expect(put.status).toBe(405);
    expect(await raw("/json/no/such/thing").then((r) => r.json())).toEqual({ result: "error", msg: "Not Found", code: "NOT_FOUND" });
  });

  test("authenticates only by the session cookie, and /api/v1 only by HTTP Basic", async () => {
    const { api, browser } = await member();
    const noCookie = await raw("/json/users/me", { headers: { Authorization: api.auth! } });
    expect(noCookie.status).toBe(401);
    expect(await noCookie.json()).toEqual({ result: "error", msg: "Not logged in: API authentication or user session required", code: "UNAUTHORIZED" });
    expect(noCookie.headers.get("www-authenticate")).toBe('Session realm="zulip"'); // no browser password dialog
    const cookieOnly = await raw("/api/v1/users/me", { headers: { Cookie: browser.cookieHeader } });
    expect(cookieOnly.status).toBe(401);
    expect(cookieOnly.headers.get("www-authenticate")).toBe('Basic realm="zulip"');
    const forged = await raw("/json/users/me", { headers: { Cookie: "confab_session=" + "x".repeat(43) } });
    expect(forged.status).toBe(401);
    // A tab that is not signed in learns so (401, not a CSRF refusal), even where the API takes spectators.
    const register = await raw("/json/register", { method: "POST" });
    expect([register.status, ((await register.json()) as { code: string }).code]).toEqual([401, "UNAUTHORIZED"]);
    expect((await raw("/json/server_settings")).status).toBe(200);
  });

  test("unsafe methods need X-CSRFToken equal to the cookie and to the session's token", async () => {
    const { api, browser } = await member();
    const before = (await ok(api.get("/messages", { anchor: "newest", num_before: 1, num_after: 0, narrow: [] }))).messages.at(-1)?.id;
    const send = (headers: Record<string, string>) =>
      raw("/json/messages", {
        method: "POST",
        headers: { "Content-Type": "application/x-www-form-urlencoded", ...headers },
        body: new URLSearchParams({ type: "stream", to: "general", topic: "csrf", content: "forged" }),
      });
    const cases: [Record<string, string>, string][] = [
      [{ Cookie: browser.cookieHeader }, "CSRF token missing."],
      [{ Cookie: browser.cookieHeader, "X-CSRFToken": "x".repeat(32) }, "CSRF token incorrect."],
      [{ Cookie: `confab_session=${browser.session}`, "X-CSRFToken": browser.csrf }, "CSRF cookie not set."],
      // A csrftoken cookie planted by a sibling subdomain, repeated in the header, is still not this session's.
      [{ Cookie: `confab_session=${browser.session}; csrftoken=${"p".repeat(32)}`, "X-CSRFToken": "p".repeat(32) }, "CSRF token incorrect."],
    ];
    for (const [headers, reason] of cases) {
      const res = await send(headers);
      expect(res.status).toBe(403);
      expect(await res.json()).toEqual({ result: "error", msg: `CSRF error: ${reason}`, code: "CSRF_FAILED", reason });
    }
    for (const [method, path] of [
      ["PATCH", "/json/settings?full_name=Forged"],
      ["DELETE", "/json/users/me"],
    ])
      expect((await raw(path!, { method, headers: { Cookie: browser.cookieHeader } })).status).toBe(403);
    expect(await ok(api.get("/users/me"))).toMatchObject({ is_active: true, full_name: expect.not.stringContaining("Forged") });
    const after = (await ok(api.get("/messages", { anchor: "newest", num_before: 1, num_after: 0, narrow: [] }))).messages.at(-1)?.id;
    expect(after).toBe(before); // nothing was sent
    expect((await send({ Cookie: browser.cookieHeader, "X-CSRFToken": browser.csrf })).status).toBe(200);
  });

  test("register and GET /events work with the session (the web client's event loop)", async () => {
    const { api, browser } = await member();
    const reg = await ok(browser.post("/register", { event_types: ["message"], apply_markdown: true }));
    const polling = browser.get("/events", { queue_id: reg.queue_id, last_event_id: reg.last_event_id });
    await ok(api.post("/messages", { type: "stream", to: "general", topic: "live", content: "ping" }));
    const { events } = await ok(polling);
    expect(events[0]).toMatchObject({ type: "message", message: { content: "<p>ping</p>" } });
  });
});

describe("revocation", () => {
  const expectSignedOut = async (c: SessionClient) => {
    const res = await raw("/json/users/me", { headers: { Cookie: c.cookieHeader } });
    expect(res.status).toBe(401);
    expect(await res.json()).toMatchObject({ code: "UNAUTHORIZED" });
  };

  test("sign-out ends the session and clears the cookies; it needs the CSRF token", async () => {
    const { browser } = await member();
    const noToken = await raw("/accounts/logout", { method: "POST", headers: { Cookie: browser.cookieHeader } });
    expect(noToken.status).toBe(403);
    await ok(browser.get("/users/me"));
    const res = await raw("/accounts/logout", { method: "POST", headers: { Cookie: browser.cookieHeader, "X-CSRFToken": browser.csrf } });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ result: "success", msg: "" });
    const c = cookiesFrom(res);
    expect([c.get("confab_session")?.value, c.get("csrftoken")?.value]).toEqual(["", ""]);
    expect(c.get("confab_session")!.attrs).toContain("Max-Age=0");
    await expectSignedOut(browser);
    // Signing out again (a stale tab) just clears the cookies.
    expect((await raw("/accounts/logout", { method: "POST", headers: { Cookie: browser.cookieHeader } })).status).toBe(200);
  });

  test("a password change in the web client keeps that session and ends the others", async () => {
    const { email, browser } = await member();
    const other = await signIn(s.url, email, "correct horse");
    await ok(browser.patch("/settings", { old_password: "correct horse", new_password: "battery staple" }));
    await ok(browser.get("/users/me"));
    await expectSignedOut(other);
    expect((await postLogin(s.url, email, "battery staple")).status).toBe(200);
  });

  test("a password change through the API or by an operator ends every session", async () => {
    const { api, email, browser } = await member();
    await ok(api.patch("/settings", { old_password: "correct horse", new_password: "battery staple" }));
    await expectSignedOut(browser);
    const again = await signIn(s.url, email, "battery staple");
    await setPassword(s.app, (await findUserById(s.app.db, api.userId!))!, "third password");
    await expectSignedOut(again);
  });

  test("deactivation by an administrator or of one's own account ends the sessions", async () => {
    const a = await member();
    await ok(s.owner.delete(`/users/${a.api.userId}`));
    await expectSignedOut(a.browser);
    await ok(s.owner.post(`/users/${a.api.userId}/reactivate`));
    await expectSignedOut(a.browser); // reactivation does not bring old sessions back
    const b = await member();
    await ok(b.browser.delete("/users/me"));
    await expectSignedOut(b.browser);
  });

  test("the CLI, in another process, revokes at once: user deactivate", async () => {
    const { email, browser } = await member();
    const r = await run(["user", "deactivate", email, "--data-dir", s.dataDir], { env: s.env });
    expect(r).toMatchObject({ code: 0 });
    await expectSignedOut(browser);
  });

  test("an expired session is refused", async () => {
    const { browser } = await member();
    await s.clock.during(14 * 86400 + 1, () => expectSignedOut(browser));
  });
});

test("no session token, CSRF token or password reaches the log", async () => {
  const { email, browser } = await member();
  await ok(browser.get("/users/me"));
  await ok(browser.post("/messages", { type: "stream", to: "general", topic: "log", content: "x" }));
  await raw("/accounts/logout", { method: "POST", headers: { Cookie: browser.cookieHeader, "X-CSRFToken": browser.csrf } });
  await postLogin(s.url, email, "a wrong password");
  const log = logLines.join("\n");
  expect(log).toContain("/json/messages"); // requests are logged, at debug level
  for (const secret of [browser.session, browser.csrf, "correct horse", "a wrong password"]) expect(log).not.toContain(secret);
});

describe("Secure cookies and realm deactivation", () => {
  test("with an https external URL the cookies are Secure; realm deactivation ends every session", async () => {
    const t = await startServer({ env: { CONFAB_EXTERNAL_URL: "https://chat.example.com" } });
    try {
      const res = await postLogin(t.url, t.owner.email!, t.ownerPassword, { Host: "chat.example.com" });
      expect(res.status).toBe(200);
      const c = cookiesFrom(res);
      expect(c.get("confab_session")!.attrs).toBe("Path=/; Max-Age=1209600; SameSite=Lax; HttpOnly; Secure");
      expect(c.get("csrftoken")!.attrs).toBe("Path=/; Max-Age=1209600; SameSite=Lax; Secure");
      const cookie = `confab_session=${c.get("confab_session")!.value}`;
      expect((await fetch(`${t.url}/json/users/me`, { headers: { Cookie: cookie } })).status).toBe(200);
      const r = await run(["realm", "deactivate", "", "--data-dir", t.dataDir], { env: t.env });
      expect(r.code).toBe(0);
      const after = await fetch(`${t.url}/json/users/me`, { headers: { Cookie: cookie } });
      expect(after.status).toBe(401);
      expect(await sqlOn(t.app.db).get("SELECT count(*) AS n FROM sessions")).toEqual({ n: 0 });
    } finally {
      await t.stop();
    }
  });
});

test("failed sign-ins count toward the existing rate limits", async () => {
  const t = await startServer({ env: { CONFAB_RATE_LIMIT_AUTH_FAILURES: "3" } });
  try {
    for (let i = 0; i < 3; i++) expect((await postLogin(t.url, t.owner.email!, "nope")).status).toBe(401);
    const limited = await postLogin(t.url, t.owner.email!, t.ownerPassword);
    expect(limited.status).toBe(429);
    expect(await limited.json()).toMatchObject({ result: "error", code: "RATE_LIMIT_HIT", msg: "API usage exceeded rate limit" });
    expect(Number(limited.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(limited.headers.getSetCookie()).toEqual([]);
  } finally {
    await t.stop();
  }
});

test("signing up through an invitation page signs the new person in and leads to the app", async () => {
  // As the web client's "Invite users" asks: the new person starts in the default channels.
  const { invite_link } = await ok(s.owner.post("/invites/multiuse", { include_realm_default_subscriptions: true }));
  const res = await fetch(invite_link, {
    method: "POST",
    redirect: "manual",
    headers: { Origin: s.url },
    body: new URLSearchParams({ email: "joiner@example.com", full_name: "Jo Iner", password: "joiner-password" }),
  });
  expect(res.status).toBe(303);
  expect(res.headers.get("location")).toBe("/");
  const c = cookiesFrom(res);
  const me = await raw("/json/users/me", { headers: { Cookie: `confab_session=${c.get("confab_session")!.value}` } });
  expect(await me.json()).toMatchObject({ result: "success", email: "joiner@example.com", full_name: "Jo Iner" });
  // The app then shows #general and #sandbox (default channels), with the welcome bot's note in #general.
  const subs = await raw("/json/users/me/subscriptions", { headers: { Cookie: `confab_session=${c.get("confab_session")!.value}` } });
  expect(((await subs.json()) as { subscriptions: { name: string }[] }).subscriptions.map((x) => x.name).sort()).toEqual(["general", "sandbox"]);
});
