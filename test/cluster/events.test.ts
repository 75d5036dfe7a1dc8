// Events across confab nodes on one PostgreSQL (docs/scaling.md, sections 2–4), three `confab serve`
// processes (test/helpers/cluster.ts): what one node commits reaches long-polls held on the others — a
// message, an edit, a reaction, a subscription change, a typing notification, a widget push; a poll
// for another node's queue is answered by its owner, one hop away; ids reach every queue in ascending
// order while two nodes send at once; a killed node's clients hear BAD_EVENT_QUEUE_ID, register again on
// a live node and lose nothing. Every answer is checked against Zulip's OpenAPI (helpers/client.ts).
// Skipped, saying why, without PostgreSQL.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { createApp } from "../../src/app";
import { loadConfig } from "../../src/config";
import type { App } from "../../src/context";
import { createLogger } from "../../src/lib/log";
import { STALE_MS } from "../../src/db/nodes";
import { startCluster, type Cluster } from "../helpers/cluster";
import { expectError, ok, type Client } from "../helpers/client";
import { register } from "../helpers/events";
import { postgresMissing } from "../helpers/postgres";
import { install, pluginRepository } from "../fixtures/plugins/helpers";
import { run } from "../cli/run";
import { SessionClient, signIn } from "../helpers/session";
import { waitFor } from "../helpers/wait";
import type { TestServer } from "../helpers/server";

const missing = postgresMissing("cluster tests (events across nodes)");
let c: Cluster;
/** The owner on each node. */
let owner: Client[];
/** Ann, a member, on each node. */
let ann: Client[];
let channel: number;

beforeAll(async () => {
  if (missing) return;
  // Short heartbeats: a held poll with nothing to say answers within 2 s, so the loops below go on.
  c = await startCluster(3, { env: { CONFAB_EVENTS_HEARTBEAT_SECONDS: "2" } });
  owner = [0, 1, 2].map((i) => c.client(i));
  const created = await ok(owner[0]!.post("/users", { email: "ann@example.com", password: "ann-password-1", full_name: "Ann" }));
  const key = (await ok(c.client(1, "", "").post("/fetch_api_key", { username: "ann@example.com", password: "ann-password-1" }))).api_key;
  ann = [0, 1, 2].map((i) => c.client(i, "ann@example.com", key, created.user_id));
  channel = (await ok(owner[0]!.post("/channels/create", { name: "cluster", subscribers: [created.user_id] }))).id;
}, 60_000);
afterAll(async () => await c?.stop());

/**
 * Long-polls `q` (held, as a client's GET /events is) until an event matches, acknowledging what came
 * before; the poll is already held when this returns its promise's first turn.
 */
async function heard(cl: Client, q: Record<string, any>, what: string, match: (e: any) => boolean, ms = 10_000): Promise<any> {
  let last = -1;
  const until = Date.now() + ms;
  while (Date.now() < until) {
    const r = await ok(cl.get("/events", { queue_id: q.queue_id, last_event_id: last }));
    for (const e of r.events) {
      if (match(e)) return e;
      last = Math.max(last, e.id);
    }
  }
  throw new Error(`timed out after ${ms} ms waiting for ${what}`);
}

/** Ann's queues on nodes B and C (1 and 2). */
const annQueues = async (params: Record<string, unknown> = {}) => await Promise.all([register(ann[1]!, params), register(ann[2]!, params)]);

/** Both queues hear `match` after `act` runs on node A: the polls are held before it. */
async function bothHear(qs: Record<string, any>[], what: string, act: () => Promise<unknown>, match: (e: any) => boolean) {
  const polls = qs.map((q, i) => heard(ann[i + 1]!, q, `${what} on node ${"BC"[i]}`, match));
  await Bun.sleep(50); // the polls are held
  await act();
  return await Promise.all(polls);
}

test.skipIf(missing !== null)("queue ids name their node", async () => {
  const qs = await Promise.all(c.nodes.map((_, i) => register(ann[i]!, { event_types: ["message"] })));
  expect(qs.map((q) => q.queue_id.split(":")[0])).toEqual(c.nodes.map((n) => n.name));
});

test.skipIf(missing !== null)("a message sent through node A reaches long-polls held on nodes B and C", async () => {
  const qs = await annQueues({ event_types: ["message"] });
  let id = 0;
  const [b, cc] = await bothHear(
    qs,
    "the message",
    async () => (id = (await ok(owner[0]!.post("/messages", { type: "stream", to: channel, topic: "nodes", content: "across the cluster" }))).id),
    (e) => e.type === "message" && e.message.content.includes("across the cluster"),
  );
  for (const e of [b, cc]) expect(e.message).toMatchObject({ id, sender_email: c.owner.email, subject: "nodes" });
});

test.skipIf(missing !== null)("an edit, a reaction, a subscription change and a typing notification likewise", async () => {
  const qs = await annQueues();
  const sent = (await ok(owner[0]!.post("/messages", { type: "stream", to: channel, topic: "nodes", content: "to be edited" }))).id as number;
  const edited = await bothHear(
    qs,
    "the edit",
    () => ok(owner[0]!.patch(`/messages/${sent}`, { content: "edited on A" })),
    (e) => e.type === "update_message" && e.message_id === sent,
  );
  for (const e of edited) expect(e.rendered_content).toContain("edited on A");
  await bothHear(
    qs,
    "the reaction",
    () => ok(owner[0]!.post(`/messages/${sent}/reactions`, { emoji_name: "octopus" })),
    (e) => e.type === "reaction" && e.op === "add" && e.message_id === sent && e.emoji_name === "octopus",
  );
  const subscribed = await bothHear(
    qs,
    "the subscription",
    () => ok(owner[0]!.post("/users/me/subscriptions", { subscriptions: [{ name: "joined on A" }], principals: [ann[0]!.userId] })),
    (e) => e.type === "subscription" && e.op === "add",
  );
  for (const e of subscribed) expect(e.subscriptions.map((s: any) => s.name)).toEqual(["joined on A"]);
  await bothHear(
    qs,
    "the typing notification",
    () => ok(owner[0]!.post("/typing", { op: "start", type: "direct", to: [ann[0]!.userId] })),
    (e) => e.type === "typing" && e.op === "start" && e.sender.email === c.owner.email,
  );
});

test.skipIf(missing !== null)("a widget push (ext_widget) likewise", async () => {
  // The repository is made as a CLI command would, by a node of its own (this test process) on the same database.
  const app: App = await createApp(
    loadConfig({ dataDir: c.dataDir }, { CONFAB_LOG_LEVEL: "error", CONFAB_STORAGE_DRIVER: "postgres", CONFAB_STORAGE_URL: c.databaseUrl }),
    { log: createLogger("error") },
  );
  let repo: number;
  try {
    repo = await pluginRepository({ app } as TestServer);
  } finally {
    app.close();
  }
  const plugin = (await ok(install(owner[0]!, repo, "answering"))).plugin;
  const link = (await ok(owner[0]!.post(`/ext/plugins/${plugin.id}/links`, { kind: "project", value: "web", stream_id: channel }))).link.id;
  const bots = (await ok(owner[0]!.post("/register", { fetch_event_types: ["realm_bot"] }))).realm_bots;
  const bot = bots.find((b: any) => b.user_id === plugin.bot_user_id);
  const qs = await annQueues({ event_types: ["ext_widget"] });
  const pushed = await bothHear(
    qs,
    "the widget push",
    () => ok(c.client(0, bot.email, bot.api_key).post("/ext/widgets", { widget: "builds", link_id: link, document: { data: { failing: 1 } } })),
    (e) => e.type === "ext_widget",
  );
  for (const e of pushed) expect(e).toMatchObject({ widget: "builds", link_id: link, document: { data: { failing: 1 } } });
  await ok(owner[0]!.delete(`/ext/plugins/${plugin.id}`));
});

test.skipIf(missing !== null)("a poll for another node's queue is answered by its owner, one hop away; so is its DELETE", async () => {
  const q = await register(ann[2]!, { event_types: ["message"] }); // on C
  const poll = heard(ann[1]!, q, "the message through B", (e) => e.type === "message" && e.message.content === "polled through B");
  await Bun.sleep(50);
  await ok(owner[0]!.post("/messages", { type: "stream", to: channel, topic: "hop", content: "polled through B" }));
  expect((await poll).message.subject).toBe("hop");
  // Someone else's credentials get nothing through the hop either.
  await expectError(
    owner[1]!.get("/events", { queue_id: q.queue_id, last_event_id: -1, dont_block: true }),
    400,
    "BAD_EVENT_QUEUE_ID",
    `Bad event queue ID: ${q.queue_id}`,
  );
  await ok(ann[1]!.delete("/events", { queue_id: q.queue_id }));
  await expectError(ann[2]!.get("/events", { queue_id: q.queue_id, last_event_id: -1 }), 400, "BAD_EVENT_QUEUE_ID", `Bad event queue ID: ${q.queue_id}`);
  // A node that never was: unknown, as any queue id.
  const made = `nosuchnode:${q.queue_id.split(":").slice(1).join(":")}`;
  await expectError(ann[0]!.get("/events", { queue_id: made, last_event_id: -1 }), 400, "BAD_EVENT_QUEUE_ID", `Bad event queue ID: ${made}`);
});

test.skipIf(missing !== null)("a browser session's poll and DELETE through the wrong node carry its cookie and CSRF token to the owner", async () => {
  const onC = await signIn(c.nodes[2]!.url, "ann@example.com", "ann-password-1");
  const onB = new SessionClient(c.nodes[1]!.url, onC.session, onC.csrf, onC.userId!);
  const q = await register(onC, { event_types: ["message"] });
  const poll = heard(onB, q, "the message through B's /json", (e) => e.type === "message" && e.message.content === "a browser's hop");
  await Bun.sleep(50);
  await ok(owner[0]!.post("/messages", { type: "stream", to: channel, topic: "hop", content: "a browser's hop" }));
  await poll;
  onB.sendCsrf = false; // a forged DELETE is refused, wherever it arrives
  await expectError(onB.delete("/events", { queue_id: q.queue_id }, { unchecked: true }), 403, "CSRF_FAILED", /^CSRF error: /);
  onB.sendCsrf = true;
  await ok(onB.delete("/events", { queue_id: q.queue_id }));
  await expectError(onC.get("/events", { queue_id: q.queue_id, last_event_id: -1 }), 400, "BAD_EVENT_QUEUE_ID", `Bad event queue ID: ${q.queue_id}`);
});

test.skipIf(missing !== null)(
  "two nodes sending at once: every queue sees ascending message ids",
  async () => {
    const qs = await Promise.all([register(ann[1]!, { event_types: ["message"] }), register(ann[2]!, { event_types: ["message"] })]);
    const N = 200;
    const collect = async (cl: Client, q: Record<string, any>) => {
      const ids: number[] = [];
      let last = -1;
      const until = Date.now() + 60_000;
      while (ids.length < 2 * N && Date.now() < until) {
        const r = await ok(cl.get("/events", { queue_id: q.queue_id, last_event_id: last }));
        for (const e of r.events) {
          if (e.type === "message" && e.message.subject === "race") ids.push(e.message.id);
          last = Math.max(last, e.id);
        }
      }
      return ids;
    };
    const seen = [collect(ann[1]!, qs[0]!), collect(ann[2]!, qs[1]!)];
    const send = (node: number, i: number) => ok(owner[node]!.post("/messages", { type: "stream", to: channel, topic: "race", content: `${node}/${i}` }));
    const sent = await Promise.all([...Array(N).keys()].flatMap((i) => [send(0, i), send(2, i)]));
    const ids = sent.map((s) => s.id as number).sort((x, y) => x - y);
    for (const got of await Promise.all(seen)) {
      expect(got).toHaveLength(2 * N);
      expect(got).toEqual(ids); // every message, each once, ascending
    }
  },
  90_000,
);

test.skipIf(missing !== null)(
  "revocations reach every node: a bot's key regenerated through node A, a user deactivated by the CLI",
  async () => {
    const made = await ok(owner[0]!.post("/bots", { full_name: "Relay", short_name: "relay" }));
    const email = (await ok(owner[0]!.get(`/users/${made.user_id}`))).user.email as string;
    const bot = (i: number, key: string) => c.client(i, email, key, made.user_id);
    const botQueues = await Promise.all([register(bot(1, made.api_key)), register(bot(2, made.api_key))]);
    const fresh = (await ok(owner[0]!.post(`/bots/${made.user_id}/api_key/regenerate`))).api_key as string;
    // Each node hears it a moment after the answer (the batch that carried it committed before).
    for (const [i, q] of botQueues.entries())
      await waitFor(
        `the bot's queue on node ${"BC"[i]} to go`,
        async () => {
          const r = await bot(i + 1, fresh).get("/events", { queue_id: q.queue_id, last_event_id: -1, dont_block: true });
          return r.code === "BAD_EVENT_QUEUE_ID" && r.msg === `Bad event queue ID: ${q.queue_id}`;
        },
        2_000,
        10,
      );

    // A CLI command is a node too: the deactivation it commits reaches B and C, and ends Bob's queues there.
    const bobId = (await ok(owner[0]!.post("/users", { email: "bob@example.com", password: "bob-password-1", full_name: "Bob" }))).user_id;
    const key = (await ok(c.client(0, "", "").post("/fetch_api_key", { username: "bob@example.com", password: "bob-password-1" }))).api_key;
    const bob = (i: number) => c.client(i, "bob@example.com", key, bobId);
    const qs = await Promise.all([register(bob(1)), register(bob(2))]);
    const polls = qs.map((q, i) => bob(i + 1).get("/events", { queue_id: q.queue_id, last_event_id: -1 }));
    await Bun.sleep(50);
    const cli = await run(["user", "deactivate", "bob@example.com", "--data-dir", c.dataDir], {
      env: { CONFAB_STORAGE_DRIVER: "postgres", CONFAB_STORAGE_URL: c.databaseUrl },
    });
    expect({ code: cli.code, stderr: cli.stderr }).toEqual({ code: 0, stderr: "" });
    // The held polls are answered (the deactivation's own event comes first, in the same batch as the change).
    expect((await Promise.all(polls)).map((a) => a.result)).toEqual(["success", "success"]);
    // Back again: the queues went on B and C as well.
    await ok(owner[0]!.post(`/users/${bobId}/reactivate`));
    for (const [i, q] of qs.entries())
      await expectError(bob(i + 1).get("/events", { queue_id: q.queue_id, last_event_id: -1 }), 400, "BAD_EVENT_QUEUE_ID", `Bad event queue ID: ${q.queue_id}`);
  },
  30_000,
);

test.skipIf(missing !== null)("a node whose LISTEN connection is cut drops its queues (it cannot know what it missed), then hears again", async () => {
  const qs = await Promise.all([register(ann[0]!, { event_types: ["message"] }), register(ann[2]!, { event_types: ["message"] })]);
  await c.sql()`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE query LIKE 'LISTEN%'`;
  for (const [i, q] of qs.entries())
    await waitFor(
      `node ${"AC"[i]} to drop its queue`,
      async () => (await ann[i * 2]!.get("/events", { queue_id: q.queue_id, last_event_id: -1, dont_block: true })).code === "BAD_EVENT_QUEUE_ID",
      5_000,
      20,
    );
  // The node listens again (and drops once more what was registered before it did): a client that
  // registers again, as often as it is told to, hears what another node sends.
  let again = await register(ann[2]!, { event_types: ["message"] });
  await waitFor(
    "node C to hear again",
    async () => {
      await ok(owner[0]!.post("/messages", { type: "stream", to: channel, topic: "relisten", content: "heard again" }));
      const r = await ann[2]!.get("/events", { queue_id: again.queue_id, last_event_id: -1, dont_block: true });
      if (r.code === "BAD_EVENT_QUEUE_ID") again = await register(ann[2]!, { event_types: ["message"] });
      return r.result === "success" && r.events.some((e: any) => e.type === "message" && e.message.content === "heard again");
    },
    10_000,
    200,
  );
});

test.skipIf(missing !== null)(
  "a killed node's clients hear BAD_EVENT_QUEUE_ID, register again on a live node and lose nothing",
  async () => {
    const q = await register(ann[1]!, { event_types: ["message"] }); // on B
    await c.kill(1, "SIGKILL");
    // Messages sent while the client finds out.
    const during = [];
    for (const i of [1, 2, 3]) during.push((await ok(owner[0]!.post("/messages", { type: "stream", to: channel, topic: "after B", content: `sent ${i}` }))).id);
    // Through a live node: B's address refuses, and once its heartbeat is stale it is not even tried.
    await expectError(ann[0]!.get("/events", { queue_id: q.queue_id, last_event_id: -1 }), 400, "BAD_EVENT_QUEUE_ID", `Bad event queue ID: ${q.queue_id}`);
    await Bun.sleep(STALE_MS + 500);
    await expectError(ann[2]!.get("/events", { queue_id: q.queue_id, last_event_id: -1 }), 400, "BAD_EVENT_QUEUE_ID", `Bad event queue ID: ${q.queue_id}`);
    // Registered again on A: what was sent meanwhile is in its state and in GET /messages.
    const again = await register(ann[0]!, { event_types: ["message"], fetch_event_types: ["message"] });
    expect(again.queue_id.split(":")[0]).toBe(c.nodes[0]!.name);
    expect(again.max_message_id).toBeGreaterThanOrEqual(Math.max(...during));
    const got = await ok(ann[0]!.get("/messages", { anchor: "newest", num_before: 10, num_after: 0, narrow: [{ operator: "topic", operand: "after B" }] }));
    expect(got.messages.map((m: any) => m.id)).toEqual(during);
    // And it hears what comes next.
    const next = heard(ann[0]!, again, "the next message", (e) => e.type === "message" && e.message.content === "after the re-register");
    await Bun.sleep(50);
    await ok(owner[2]!.post("/messages", { type: "stream", to: channel, topic: "after B", content: "after the re-register" }));
    await next;
  },
  30_000,
);
