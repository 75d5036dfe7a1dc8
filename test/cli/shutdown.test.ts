// SIGTERM: stop accepting, finish in-flight requests, answer held long-polls, commit, exit in bounded time.
import { afterAll, expect, test } from "bun:test";
import { connect } from "node:net";
import { api, serve, tempDir } from "./run";

const dir = tempDir("confab-term-");
afterAll(() => dir.remove());

test("SIGTERM during sends answers every in-flight request and held long-poll; what was answered is there after a restart", async () => {
  const first = await serve(dir.path);
  const email = /owner email: +(\S+)/.exec(first.stdout())![1]!;
  const key = /API key: +(\S+)/.exec(first.stdout())![1]!;
  const auth: [string, string] = [email, key];
  const me = (await api(first.url, "/users/me", { auth })).body.user_id as number;
  const basic = "Basic " + Buffer.from(`${email}:${key}`).toString("base64");

  // A held long-poll (on events the sends below do not cause).
  const q = (await api(first.url, "/register", { auth, form: { event_types: '["drafts"]' } })).body;
  const poll = fetch(`${first.url}/api/v1/events?queue_id=${encodeURIComponent(q.queue_id)}&last_event_id=${q.last_event_id}`, {
    headers: { Authorization: basic },
  }).then(
    async (r) => ({ status: r.status, body: (await r.json()) as any }),
    (e) => ({ status: 0, body: String(e) }),
  );
  // A send that is certainly in flight when the signal arrives: its body is only half sent.
  const body = new URLSearchParams({ type: "direct", to: JSON.stringify([me]), content: "sent across the shutdown" }).toString();
  const url = new URL(first.url);
  let raw = "";
  const sock = connect(Number(url.port), url.hostname);
  sock.on("data", (d) => (raw += d.toString()));
  await new Promise((r) => sock.once("connect", r));
  sock.write(
    `POST /api/v1/messages HTTP/1.1\r\nHost: ${url.host}\r\nAuthorization: ${basic}\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: ${body.length}\r\n\r\n` +
      body.slice(0, 10),
  );
  await Bun.sleep(100); // the poll is held, the half request read
  // And a burst of ordinary sends around the signal.
  const sends = Array.from({ length: 30 }, (_, i) =>
    fetch(`${first.url}/api/v1/messages`, {
      method: "POST",
      headers: { Authorization: basic },
      body: new URLSearchParams({ type: "direct", to: JSON.stringify([me]), content: `burst ${i}` }),
    }).then(
      async (r) => ({ status: r.status, body: (await r.json()) as any }),
      (e) => ({ status: 0, body: String(e) }),
    ),
  );
  const started = performance.now();
  first.proc.kill("SIGTERM");
  await Bun.sleep(200);
  sock.write(body.slice(10));
  const code = await first.proc.exited;
  const exitMs = performance.now() - started;
  await Bun.sleep(50);
  sock.destroy();

  expect(code).toBe(0);
  expect(exitMs).toBeLessThan(20_000);
  const p = await poll;
  expect(p.status).toBe(200);
  expect(p.body.events.map((e: { type: string }) => e.type)).toContain("heartbeat");
  const inFlight = JSON.parse(raw.slice(raw.indexOf("\r\n\r\n") + 4));
  expect(raw.split(" ")[1]).toBe("200");
  expect(inFlight.result).toBe("success");
  const answered = await Promise.all(sends);
  // Every send was either answered in full or never accepted (sent after the server stopped listening).
  for (const a of answered) if (a.status !== 0) expect(a.status).toBe(200);
  const ids = [inFlight.id, ...answered.filter((a) => a.status === 200).map((a) => a.body.id)];

  const second = await serve(dir.path);
  try {
    const got = await api(
      second.url,
      `/messages?anchor=newest&num_before=100&num_after=0&narrow=${encodeURIComponent(JSON.stringify([{ operator: "dm", operand: [me] }]))}`,
      { auth },
    );
    const stored = new Set(got.body.messages.map((m: { id: number }) => m.id));
    for (const id of ids) expect(stored.has(id)).toBe(true);
  } finally {
    expect(await second.stop()).toBe(0);
  }
}, 30_000);
