// CLI changes reach the running server at once (runtime/control.ts): a user whose key, password or
// account the CLI changes, or whose realm it deactivates, loses their held long-polls and queues
// within a second, and the old key receives nothing after.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { expectError, ok, type Client } from "../helpers/client";
import { startServer, type TestServer } from "../helpers/server";
import { run } from "./run";

/** A CLI process starts in about a second, much slower on a loaded machine. */
const CLI_MS = 30_000;

let s: TestServer;
beforeAll(async () => {
  s = await startServer();
}, CLI_MS);
afterAll(() => s.stop());

/** Registers a queue and holds a GET /events on it; `ended` resolves with the time it was answered. */
async function heldPoll(c: Client) {
  const q = await ok(c.post("/register", { event_types: ["message"] }));
  const answer = c.get("/events", { queue_id: q.queue_id, last_event_id: q.last_event_id }, { unchecked: true });
  const ended = answer.then((body) => ({ body, at: performance.now() }));
  await Bun.sleep(50); // the poll is held by now
  return { queue: q.queue_id as string, ended };
}

/** Runs the CLI on the server's data directory; the time it exited. */
async function cli(args: string[], stdin?: string) {
  const r = await run([...args, "--data-dir", s.dataDir], { stdin, env: s.env });
  expect(r.stderr).toBe("");
  expect(r.code).toBe(0);
  return performance.now();
}

async function endsWithin(ended: Promise<{ at: number }>, cliExited: number) {
  const done = await Promise.race([ended, Bun.sleep(1000).then(() => null)]);
  expect(done).not.toBeNull(); // answered, not left to its 60 s heartbeat
  expect(done!.at - cliExited).toBeLessThan(1000);
}

test(
  "confab user api-key --regenerate: the held poll ends, the old key gets nothing after",
  async () => {
    const u = await s.newUser();
    const poll = await heldPoll(u);
    const exited = await cli(["user", "api-key", "--regenerate", u.email!]);
    await endsWithin(poll.ended, exited);
    await ok(s.owner.post("/messages", { type: "direct", to: JSON.stringify([u.userId]), content: "after the revocation" }));
    await expectError(u.get("/events", { queue_id: poll.queue, dont_block: true }), 401, "INVALID_API_KEY", "Invalid API key");
  },
  CLI_MS,
);

test(
  "confab user deactivate: the held poll ends, the queue is gone",
  async () => {
    const u = await s.newUser();
    const poll = await heldPoll(u);
    const exited = await cli(["user", "deactivate", u.email!]);
    await endsWithin(poll.ended, exited);
    expect(s.app.queues.queuesOfUser(u.userId!).size).toBe(0);
    await expectError(u.get("/events", { queue_id: poll.queue, dont_block: true }), 401, "USER_DEACTIVATED", "Account is deactivated");
  },
  CLI_MS,
);

test(
  "confab user set-password: the user's queues end (whoever had the old password loses what it gave)",
  async () => {
    const u = await s.newUser({ password: "first-password" });
    const poll = await heldPoll(u);
    const exited = await cli(["user", "set-password", u.email!], "second-password\n");
    await endsWithin(poll.ended, exited);
    await expectError(u.get("/events", { queue_id: poll.queue, dont_block: true }), 400, "BAD_EVENT_QUEUE_ID", `Bad event queue ID: ${poll.queue}`);
  },
  CLI_MS,
);

test(
  "confab realm deactivate: every held poll of the realm ends",
  async () => {
    const [a, b] = [await s.newUser(), await s.newUser()];
    const polls = [await heldPoll(a), await heldPoll(b)];
    const realm = (await ok(s.anon.get("/server_settings"))).realm_uri as string;
    const subdomain = new URL(realm).hostname === new URL(s.url).hostname ? "" : new URL(realm).hostname.split(".")[0]!;
    const exited = await cli(["realm", "deactivate", subdomain]);
    for (const p of polls) await endsWithin(p.ended, exited);
    expect(s.app.queues.size).toBe(0);
  },
  CLI_MS,
);
