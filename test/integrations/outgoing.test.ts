// Outgoing webhooks: bots pointed at a local HTTP service on 127.0.0.1. A mention or a direct message
// calls the service with Zulip's fields; its answer is posted as the bot's reply; failures are reported.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ok, type Client } from "../helpers/client";
import { waitFor } from "../helpers/wait";
import { startServer, type TestServer } from "../helpers/server";

interface Seen {
  path: string;
  type: string;
  body: string;
}

/** A local service: records each request, answers with whatever `answer` returns for its path. */
function service() {
  const seen: Seen[] = [];
  const waiters: (() => void)[] = [];
  const routes = new Map<string, (n: number) => Response | Promise<Response>>();
  const server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    async fetch(req) {
      const path = new URL(req.url).pathname;
      seen.push({ path, type: req.headers.get("content-type") ?? "", body: await req.text() });
      waiters.splice(0).forEach((w) => w());
      const route = routes.get(path);
      return route ? route(seen.filter((s) => s.path === path).length) : Response.json({ content: "no route" });
    },
  });
  return {
    url: (path: string) => `http://127.0.0.1:${server.port}${path}`,
    route: (path: string, fn: (n: number) => Response | Promise<Response>) => routes.set(path, fn),
    seen,
    /** Waits for the n-th request to `path`. */
    async request(path: string, n = 1): Promise<Seen> {
      const deadline = Date.now() + 10_000;
      while (seen.filter((s) => s.path === path).length < n) {
        if (Date.now() > deadline) throw new Error(`no request ${n} to ${path}`);
        await new Promise<void>((r) => {
          waiters.push(r);
          setTimeout(r, 200);
        });
      }
      return seen.filter((s) => s.path === path)[n - 1]!;
    },
    stop: () => server.stop(true),
  };
}

let svc: ReturnType<typeof service>;
let s: TestServer;
let ann: Client;

/** Creates an outgoing webhook bot for `path`; returns its id, email and token. */
async function outgoingBot(c: Client, name: string, url: string, iface = 1) {
  const b = await ok(
    c.post("/bots", { full_name: name, short_name: name.toLowerCase(), bot_type: 3, payload_url: JSON.stringify(url), interface_type: iface }),
  );
  const bots = (await ok(c.post("/register", { fetch_event_types: ["realm_bot"] }))).realm_bots;
  const row = bots.find((x: any) => x.user_id === b.user_id);
  return { id: b.user_id as number, email: row.email as string, token: row.services[0].token as string };
}

/** Waits for a message matching `pred` among `c`'s latest. */
const waitForMessage = (c: Client, pred: (m: any) => boolean): Promise<any> =>
  waitFor(
    `a message matching ${pred}`,
    async () => (await ok(c.get("/messages", { anchor: "newest", num_before: 20, num_after: 0, apply_markdown: false }))).messages.find(pred),
    10_000,
    50,
  );

const latestId = async (c: Client) => (await ok(c.get("/messages", { anchor: "newest", num_before: 1, num_after: 0 }))).messages.at(-1)?.id ?? 0;

beforeAll(async () => {
  svc = service();
  s = await startServer({
    env: { CONFAB_OUTGOING_WEBHOOKS_MAX_ATTEMPTS: "2", CONFAB_OUTGOING_WEBHOOKS_RETRY_DELAY_MS: "50", CONFAB_OUTGOING_WEBHOOKS_TIMEOUT_SECONDS: "1" },
  });
  ann = await s.newUser({ name: "Ann" });
  await ok(ann.post("/users/me/subscriptions", { subscriptions: [{ name: "dev" }] }));
});
afterAll(async () => {
  await s.stop();
  svc.stop();
});

describe("outgoing webhooks (generic interface)", () => {
  test("a mention calls the service with Zulip's fields and token; its content is the bot's reply in the topic", async () => {
    const bot = await outgoingBot(ann, "Echo", svc.url("/echo"));
    svc.route("/echo", () => Response.json({ content: "pong from echo" }));
    await ok(ann.post("/channels/create", { name: "hidden", subscribers: [ann.userId], invite_only: true }));
    // A private channel the bot is not in: mentioning it there calls nothing.
    await ok(ann.post("/messages", { type: "stream", to: "hidden", topic: "t", content: "@**Echo** secret" }));
    const { id } = await ok(ann.post("/messages", { type: "stream", to: "dev", topic: "builds", content: "@**Echo** ping" }));
    const req = await svc.request("/echo");
    expect(req.type).toBe("application/json");
    const body = JSON.parse(req.body);
    expect(body).toMatchObject({
      bot_email: bot.email,
      bot_full_name: "Echo",
      data: "@**Echo** ping",
      token: bot.token,
      trigger: "mention",
      message: { id, type: "stream", display_recipient: "dev", subject: "builds", content: "@**Echo** ping", sender_id: ann.userId, sender_email: ann.email },
    });
    expect(body.message.rendered_content).toContain("user-mention");
    const reply = await waitForMessage(ann, (m) => m.sender_id === bot.id);
    expect(reply).toMatchObject({ display_recipient: "dev", subject: "builds", content: "pong from echo" });
    expect(svc.seen.filter((x) => x.path === "/echo").length).toBe(1);
  });

  test("a direct message calls it too (trigger direct_message) and the reply goes to the conversation", async () => {
    const bot = await outgoingBot(ann, "Dmbot", svc.url("/dm"));
    svc.route("/dm", () => Response.json({ content: "hello in private" }));
    await ok(ann.post("/messages", { type: "direct", to: JSON.stringify([bot.id]), content: "hi bot" }));
    const body = JSON.parse((await svc.request("/dm")).body);
    expect(body).toMatchObject({ trigger: "direct_message", data: "hi bot", token: bot.token, message: { type: "private" } });
    const reply = await waitForMessage(ann, (m) => m.sender_id === bot.id);
    expect(reply.type).toBe("private");
    expect(reply.display_recipient.map((u: any) => u.id).sort()).toEqual([ann.userId, bot.id].sort());
    expect(reply.content).toBe("hello in private");
  });

  test("response_not_required: nothing is posted", async () => {
    const bot = await outgoingBot(ann, "Quiet", svc.url("/quiet"));
    svc.route("/quiet", () => Response.json({ response_not_required: true }));
    svc.route("/echo", () => Response.json({ content: "echo after quiet" }));
    await ok(ann.post("/messages", { type: "stream", to: "dev", topic: "q", content: "@**Quiet** shh" }));
    await svc.request("/quiet");
    // A later call's reply arrives; none from Quiet before it.
    await ok(ann.post("/messages", { type: "stream", to: "dev", topic: "q", content: "@**Echo** after" }));
    await waitForMessage(ann, (m) => m.content === "echo after quiet");
    const r = await ok(ann.get("/messages", { anchor: "newest", num_before: 10, num_after: 0 }));
    expect(r.messages.some((m: any) => m.sender_id === bot.id)).toBe(false);
  });

  test("Slack-compatible interface: a form-encoded call, the answer's text posted", async () => {
    const bot = await outgoingBot(ann, "Slacky", svc.url("/slack"), 2);
    svc.route("/slack", () => Response.json({ text: "slack says hi" }));
    await ok(ann.post("/messages", { type: "stream", to: "dev", topic: "s", content: "@**Slacky** hey" }));
    const req = await svc.request("/slack");
    expect(req.type).toBe("application/x-www-form-urlencoded");
    const form = Object.fromEntries(new URLSearchParams(req.body));
    expect(form).toMatchObject({
      token: bot.token,
      text: "@**Slacky** hey",
      trigger_word: "mention",
      channel_name: "dev",
      user_name: "Ann",
      user_id: String(ann.userId),
    });
    expect((await waitForMessage(ann, (m) => m.sender_id === bot.id)).content).toBe("slack says hi");
  });
});

describe("failures", () => {
  test("a service that keeps failing (5xx): retried, then 'Bot is unavailable' and a notice to the owner", async () => {
    const bot = await outgoingBot(ann, "Flaky", svc.url("/flaky"));
    svc.route("/flaky", () => new Response("boom", { status: 503 }));
    await ok(ann.post("/messages", { type: "stream", to: "dev", topic: "f", content: "@**Flaky** go" }));
    await svc.request("/flaky", 2); // max_attempts = 2
    const reply = await waitForMessage(ann, (m) => m.sender_id === bot.id && m.type === "stream");
    expect(reply).toMatchObject({ subject: "f", content: "Failure! Bot is unavailable" });
    const notice = await waitForMessage(ann, (m) => m.sender_id === bot.id && m.type === "private");
    expect(notice.content).toContain("to your bot @_**Flaky** triggered an outgoing webhook");
    expect(notice.content).toContain("status code 503");
    expect(svc.seen.filter((x) => x.path === "/flaky").length).toBe(2);
  });

  test("a 4xx answer fails at once; invalid JSON and timeouts are reported too", async () => {
    const gone = await outgoingBot(ann, "Gone", svc.url("/gone"));
    svc.route("/gone", () => new Response("no such hook", { status: 404 }));
    await ok(ann.post("/messages", { type: "stream", to: "dev", topic: "g", content: "@**Gone** x" }));
    expect((await waitForMessage(ann, (m) => m.sender_id === gone.id && m.type === "stream")).content).toBe("Failure! Third party responded with 404");
    const notice = await waitForMessage(ann, (m) => m.sender_id === gone.id && m.type === "private");
    expect(notice.content).toContain("status code *404*");
    expect(notice.content).toContain("no such hook");

    const garbled = await outgoingBot(ann, "Garbled", svc.url("/garbled"));
    svc.route("/garbled", () => new Response("<html>oops</html>", { status: 200 }));
    await ok(ann.post("/messages", { type: "stream", to: "dev", topic: "g", content: "@**Garbled** x" }));
    expect((await waitForMessage(ann, (m) => m.sender_id === garbled.id && m.type === "stream")).content).toBe("Failure! Invalid JSON in response");

    const slow = await outgoingBot(ann, "Slow", svc.url("/slow"));
    svc.route("/slow", async () => {
      await Bun.sleep(1500);
      return Response.json({ content: "too late" });
    });
    await ok(ann.post("/messages", { type: "stream", to: "dev", topic: "g", content: "@**Slow** x" }));
    const late = await waitForMessage(ann, (m) => m.sender_id === slow.id && m.type === "private");
    expect(late.content).toContain("timed out after 1 seconds");
  });

  test("this server's own address and link-local addresses are refused without a call", async () => {
    const self = await outgoingBot(ann, "Selfie", `${s.url}/api/v1/messages`);
    const meta = await outgoingBot(ann, "Meta", "http://169.254.169.254/latest/meta-data/");
    await ok(ann.post("/messages", { type: "stream", to: "dev", topic: "r", content: "@**Selfie** @**Meta** hi" }));
    for (const b of [self, meta]) {
      expect((await waitForMessage(ann, (m) => m.sender_id === b.id && m.type === "stream")).content).toBe(
        "Failure! The bot's service is at an address this server may not call.",
      );
      expect((await waitForMessage(ann, (m) => m.sender_id === b.id && m.type === "private")).content).toMatch(
        /refused \((this server's own address|a link-local address)\)/,
      );
    }
  });

  test("messages from bots call no outgoing webhook (no loops)", async () => {
    const generic = await ok(ann.post("/bots", { full_name: "Talker", short_name: "talker" }));
    const bots = (await ok(ann.post("/register", { fetch_event_types: ["realm_bot"] }))).realm_bots;
    const talker = s.client(bots.find((b: any) => b.user_id === generic.user_id).email, generic.api_key, generic.user_id);
    await ok(talker.post("/users/me/subscriptions", { subscriptions: [{ name: "dev" }] }));
    const before = svc.seen.length;
    const echoes = svc.seen.filter((x) => x.path === "/echo").length;
    await ok(talker.post("/messages", { type: "stream", to: "dev", topic: "loop", content: "@**Echo** from a bot" }));
    await ok(ann.post("/messages", { type: "stream", to: "dev", topic: "loop", content: "@**Echo** from Ann" }));
    const req = await svc.request("/echo", echoes + 1);
    expect(JSON.parse(req.body).data).toBe("@**Echo** from Ann");
    expect(svc.seen.length).toBe(before + 1);
  });
});

describe("the queue survives a restart", () => {
  test("a call waiting for its retry is made by the next server on the same data", async () => {
    const dataDir = mkdtempSync(join(tmpdir(), "confab-outgoing-"));
    const env = { CONFAB_OUTGOING_WEBHOOKS_RETRY_DELAY_MS: "700", CONFAB_OUTGOING_WEBHOOKS_MAX_ATTEMPTS: "5" };
    let first = await startServer({ dataDir, env });
    const owner = first.owner;
    await ok(owner.post("/users/me/subscriptions", { subscriptions: [{ name: "ops" }] }));
    const bot = await outgoingBot(owner, "Durable", svc.url("/durable"));
    svc.route("/durable", (n) => (n === 1 ? new Response("down", { status: 502 }) : Response.json({ content: "answered after restart" })));
    const before = await latestId(owner);
    await ok(owner.post("/messages", { type: "stream", to: "ops", topic: "restart", content: "@**Durable** are you there?" }));
    await svc.request("/durable", 1);
    await first.stop({ keepData: true }); // before the retry is due
    expect(svc.seen.filter((x) => x.path === "/durable").length).toBe(1);
    const second = await startServer({ dataDir, env });
    try {
      await svc.request("/durable", 2);
      const c = second.client(owner.email!, owner.apiKey!, owner.userId!);
      const reply = await waitForMessage(c, (m) => m.sender_id === bot.id && m.id > before);
      expect(reply).toMatchObject({ subject: "restart", content: "answered after restart" });
    } finally {
      await second.stop();
    }
  });
});
