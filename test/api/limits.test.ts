// Issue 12: no single client can stall the server, lock others out, or keep rights it has lost.
// Each test repeats one of the measurements against a running server. Times here are generous
// ceilings that tell "bounded" from "stalled" (the issue measured 7-23 s); bench/limits.ts measures them.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { connect } from "node:net";
import { MAX_LIST_ITEMS } from "../../src/domain/params";
import { MAX_JSON_DEPTH } from "../../src/lib/json";
import { expectError, ok, type Client } from "../helpers/client";
import { closeQueue, register } from "../helpers/events";
import { startServer, type TestServer } from "../helpers/server";

/** Far below the seconds a stalled server took, far above what a loaded test machine adds. */
const STALL_MS = 2000;

let s: TestServer;
let ann: Client;
beforeAll(async () => {
  s = await startServer({
    env: { CONFAB_EVENTS_MAX_QUEUES_PER_USER: "5", CONFAB_EVENTS_MAX_HELD_POLLS_PER_USER: "2", CONFAB_TRUSTED_PROXIES: '["127.0.0.1"]' },
  });
  ann = await s.newUser();
});
afterAll(() => s.stop());

/** Runs `slow` while another user's GET /users/me is sent; both answers and the other one's time. */
async function alongside(slow: () => Promise<object>) {
  await ok(s.owner.get("/users/me")); // the response checker compiled before timing
  const started = performance.now();
  const timed = <T>(p: Promise<T>) => p.then((v) => ({ v, ms: performance.now() - started }));
  const [answer, other] = await Promise.all([timed(slow()), timed(ok(s.owner.get("/users/me")))]);
  return { answer: answer.v, ms: answer.ms, otherMs: other.ms, other: other.v };
}

describe("one request stalls no one", () => {
  const ids = (n: number, id: number) => JSON.stringify(Array.from({ length: n }, () => id));

  test("principals holding one's own id 100,000 times: refused at once, naming the parameter; others answered meanwhile", async () => {
    const r = await alongside(() =>
      ann.post("/users/me/subscriptions", { subscriptions: [{ name: "general" }], principals: ids(100_000, ann.userId!) }, { unchecked: true }),
    );
    await expectError(r.answer as never, 400, "BAD_REQUEST", `principals has too many items (limit: ${MAX_LIST_ITEMS})`);
    expect(r.ms).toBeLessThan(STALL_MS);
    expect(r.otherMs).toBeLessThan(STALL_MS);
    expect(r.other.user_id).toBe(s.owner.userId);
  });

  test("repeats collapse before any work: the same id 1,000 times subscribes once", async () => {
    const name = `dups-${Date.now()}`;
    const r = await ok(ann.post("/users/me/subscriptions", { subscriptions: [{ name }], principals: ids(MAX_LIST_ITEMS, ann.userId!) }));
    expect(r.subscribed).toEqual({ [String(ann.userId)]: [name] });
  });

  test("a direct message to 100,000 ids: refused fast; to nested 10,000 deep: 400, not a stack overflow", async () => {
    const r = await alongside(() => ann.post("/messages", { type: "direct", to: ids(100_000, s.owner.userId!), content: "hi" }, { unchecked: true }));
    await expectError(r.answer as never, 400, "BAD_REQUEST", `to has too many items (limit: ${MAX_LIST_ITEMS})`);
    expect(r.ms).toBeLessThan(STALL_MS);
    const deep = "[".repeat(10_000) + "]".repeat(10_000);
    await expectError(
      ann.post("/messages", { type: "direct", to: deep, content: "hi" }),
      400,
      "BAD_REQUEST",
      `to is nested too deeply (limit: ${MAX_JSON_DEPTH} levels)`,
    );
    const deepish = "[".repeat(MAX_JSON_DEPTH + 1) + "]".repeat(MAX_JSON_DEPTH + 1); // a query string is short
    await expectError(
      ann.get("/messages", { anchor: "newest", num_before: 1, num_after: 0, narrow: deepish }),
      400,
      "BAD_REQUEST",
      `narrow is nested too deeply (limit: ${MAX_JSON_DEPTH} levels)`,
    );
    const res = await fetch(`${s.url}/api/v1/messages`, {
      method: "POST",
      headers: { Authorization: ann.auth!, "content-type": "application/json" },
      body: `{"type":"direct","content":"hi","to":${deep}}`,
    });
    expect({ status: res.status, body: await res.json() }).toEqual({
      status: 400,
      body: { result: "error", code: "BAD_REQUEST", msg: `The request body is nested too deeply (limit: ${MAX_JSON_DEPTH} levels)` },
    });
    // The same recipient many times is one recipient.
    const sent = await ok(ann.post("/messages", { type: "direct", to: ids(50, s.owner.userId!), content: "once" }));
    const m = await ok(s.owner.get(`/messages/${sent.id}`));
    expect(m.message.display_recipient.map((u: { id: number }) => u.id).sort()).toEqual([ann.userId, s.owner.userId].sort());
  });

  test("narrows have a bounded number of terms", async () => {
    const narrow = Array.from({ length: 101 }, () => ({ operator: "is", operand: "starred" }));
    await expectError(
      ann.get("/messages", { anchor: "newest", num_before: 1, num_after: 0, narrow }),
      400,
      "BAD_NARROW",
      "Invalid narrow operator: narrow has too many terms (limit: 100)",
    );
  });
});

/** Sends raw bytes; resolves with the answer's status line, JSON body and how long it took. */
function rawRequest(head: string, body: string, o: { keepOpen?: boolean } = {}) {
  const url = new URL(s.url);
  const started = performance.now();
  return new Promise<{ status: number; body: any; ms: number }>((resolve, reject) => {
    const sock = connect(Number(url.port), url.hostname, () => {
      sock.write(head + "\r\n\r\n" + body);
      if (!o.keepOpen) sock.end();
    });
    let text = "";
    sock.on("data", (d) => {
      text += d.toString();
      const i = text.indexOf("\r\n\r\n");
      const len = /content-length: (\d+)/i.exec(text)?.[1];
      if (i >= 0 && len && text.length >= i + 4 + Number(len)) {
        sock.destroy();
        resolve({ status: Number(text.split(" ")[1]), body: JSON.parse(text.slice(i + 4, i + 4 + Number(len))), ms: performance.now() - started });
      }
    });
    sock.on("error", reject);
  });
}

describe("large bodies", () => {
  test("a declared 120 MB body is refused before it is read: 413 with a Zulip error while the body has not even been sent", async () => {
    const head = [
      `POST /api/v1/messages HTTP/1.1`,
      `Host: ${new URL(s.url).host}`,
      `Authorization: ${ann.auth}`,
      `Content-Type: application/x-www-form-urlencoded`,
      `Content-Length: ${120 * 2 ** 20}`,
    ].join("\r\n");
    const r = await rawRequest(head, "type=direct&to=1&content=", { keepOpen: true });
    expect(r.status).toBe(413);
    expect(r.body).toEqual({ result: "error", code: "BAD_REQUEST", msg: "Request body too large" });
  });

  test("a chunked body is counted as it arrives; ordinary calls take 1 MB, uploads the large limit", async () => {
    const big = new Uint8Array(2 * 2 ** 20).fill(97);
    const stream = new ReadableStream({
      start(c) {
        for (let i = 0; i < big.length; i += 65536) c.enqueue(big.subarray(i, i + 65536));
        c.close();
      },
    });
    const res = await fetch(`${s.url}/api/v1/messages`, {
      method: "POST",
      headers: { Authorization: ann.auth!, "content-type": "application/x-www-form-urlencoded" },
      body: stream,
    });
    expect({ status: res.status, body: await res.json() }).toEqual({
      status: 413,
      body: { result: "error", code: "BAD_REQUEST", msg: "Request body too large" },
    });
    // A 2 MB avatar is within the upload limit (it is refused for what it is, not for its size).
    const avatar = await s.owner.post("/users/me/avatar", {}, { files: [new File([big], "a.png", { type: "image/png" })], unchecked: true });
    expect(avatar.$status).not.toBe(413);
  });
});

describe("failed logins lock no one else out", () => {
  const guess = (username: string, forwardedFor: string) =>
    s.anon.post("/fetch_api_key", { username, password: "guess" }, { unchecked: true, headers: { "X-Forwarded-For": forwardedFor } });

  test("after many failed POST /fetch_api_key for another (even unknown) account, a valid key from the same address works", async () => {
    for (let i = 0; i < 12; i++) await guess("nobody@example.com", "198.51.100.7");
    const again = await guess("nobody2@example.com", "198.51.100.7");
    expect({ status: again.$status, code: again.code }).toEqual({ status: 429, code: "RATE_LIMIT_HIT" });
    const res = await fetch(`${s.url}/api/v1/users/me`, { headers: { Authorization: ann.auth!, "X-Forwarded-For": "198.51.100.7" } });
    expect(res.status).toBe(200);
    expect((await ok(ann.get("/users/me"))).user_id).toBe(ann.userId);
  });

  test("behind a trusted proxy each client address counts apart", async () => {
    for (let i = 0; i < 10; i++) await guess(`someone${i}@example.com`, "198.51.100.20");
    expect((await guess("someone-else@example.com", "198.51.100.20")).$status).toBe(429);
    expect((await guess("someone-else@example.com", "198.51.100.21")).$status).toBe(401);
  });

  test("a burst of concurrent password guesses runs at most the limit's worth of argon2 checks; the rest are refused at once", async () => {
    const dee = await s.newUser({ password: "dee's real password" }); // a hash to check: each guess costs an argon2 verify
    const answered: number[] = []; // statuses in the order the answers came back
    const wrongs = await Promise.all(Array.from({ length: 30 }, () => guess(dee.email!, "198.51.100.30").then((r) => (answered.push(r.$status), r))));
    const statuses = wrongs.map((r) => r.$status);
    // The refused ones did not wait for anyone's argon2: they all came back before the first checked guess.
    expect(answered.slice(0, answered.indexOf(401)).length).toBe(statuses.filter((x) => x === 429).length);
    expect(statuses.filter((x) => x === 401).length).toBeLessThanOrEqual(10);
    expect(statuses.filter((x) => x === 429).length).toBeGreaterThanOrEqual(20);
    expect(new Set(statuses)).toEqual(new Set([401, 429]));
    // Dee's own key still works, even from the busy address.
    const res = await fetch(`${s.url}/api/v1/users/me`, { headers: { Authorization: dee.auth!, "X-Forwarded-For": "198.51.100.30" } });
    expect(res.status).toBe(200);
  });
});

describe("event queue bounds", () => {
  const MESSAGES = { event_types: ["message"] };

  test("a user holds at most max_queues_per_user queues: registering more drops the least recently used", async () => {
    const u = await s.newUser();
    const queues: string[] = [];
    for (let i = 0; i < 8; i++) queues.push((await register(u, MESSAGES)).queue_id);
    for (const q of queues.slice(0, 3))
      await expectError(u.get("/events", { queue_id: q, dont_block: true }), 400, "BAD_EVENT_QUEUE_ID", `Bad event queue ID: ${q}`);
    for (const q of queues.slice(3)) await ok(u.get("/events", { queue_id: q, dont_block: true }));
    expect(s.app.queues.queuesOfUser(u.userId!).size).toBe(5);
  });

  test("at most max_held_polls_per_user polls wait: another answers the longest-waiting one with a heartbeat", async () => {
    const u = await s.newUser();
    const qs = [await register(u, MESSAGES), await register(u, MESSAGES), await register(u, MESSAGES)];
    const polls = qs.map((q) => u.get("/events", { queue_id: q.queue_id, last_event_id: q.last_event_id }));
    const first = await Promise.race([polls[0]!, Bun.sleep(1000).then(() => null)]);
    expect(first?.events).toEqual([{ type: "heartbeat", id: 0 }]);
    await closeQueue(u, qs[1]!);
    await closeQueue(u, qs[2]!);
    await Promise.all(polls);
  });
});
