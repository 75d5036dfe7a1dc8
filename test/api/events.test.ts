import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { expectError, ok } from "../helpers/client";
import { startServer, type TestServer } from "../helpers/server";

let s: TestServer;
beforeAll(async () => {
  s = await startServer({ env: { CONFAB_EVENTS_HEARTBEAT_SECONDS: "1" } });
});
afterAll(() => s.stop());

describe("register", () => {
  test("every event type at once validates, with version fields under both names", async () => {
    const r = await ok(s.owner.post("/register", {}));
    expect(typeof r.queue_id).toBe("string");
    expect(r.last_event_id).toBe(-1);
    expect(r.zulip_feature_level).toBe(r.service_feature_level);
    expect(r.realm_users.map((u: any) => u.user_id)).toContain(s.owner.userId);
    expect(r.user_id).toBe(s.owner.userId);
  });

  test("unauthenticated: client_gravatar and include_subscribers true refused", async () => {
    await expectError(s.anon.post("/register", { client_gravatar: true }), 400, "BAD_REQUEST", "Invalid 'client_gravatar' parameter for anonymous request");
    await expectError(
      s.anon.post("/register", { include_subscribers: true }),
      400,
      "BAD_REQUEST",
      "Invalid 'include_subscribers' parameter for anonymous request",
    );
  });
});

describe("events", () => {
  test("a new user reaches a registered queue; heartbeat when idle; delete then BAD_EVENT_QUEUE_ID", async () => {
    const r = await ok(s.owner.post("/register", { event_types: ["realm_user"] }));
    const poll = s.owner.get("/events", { queue_id: r.queue_id, last_event_id: -1 });
    const u = await s.newUser({ name: "Ann Event" });
    const got = await ok(poll);
    expect(got.events).toEqual([
      expect.objectContaining({ type: "realm_user", op: "add", person: expect.objectContaining({ user_id: u.userId, full_name: "Ann Event" }) }),
    ]);
    const hb = await ok(s.owner.get("/events", { queue_id: r.queue_id, last_event_id: got.events[0].id }));
    expect(hb.events).toEqual([{ type: "heartbeat", id: got.events[0].id + 1 }]);
    await ok(s.owner.delete("/events", { queue_id: r.queue_id }));
    const e = await expectError(s.owner.get("/events", { queue_id: r.queue_id }), 400, "BAD_EVENT_QUEUE_ID", `Bad event queue ID: ${r.queue_id}`);
    expect(e.queue_id).toBe(r.queue_id);
  });
});

describe("queue lifecycle", () => {
  test("last_event_id acknowledges: acknowledged events are not sent again, later ones are", async () => {
    const q = await ok(s.owner.post("/register", { event_types: ["realm_user"] }));
    await s.newUser();
    await s.newUser();
    const first = await ok(s.owner.get("/events", { queue_id: q.queue_id, last_event_id: -1, dont_block: true }));
    expect(first.events.map((e: any) => e.id)).toEqual([0, 1]);
    const again = await ok(s.owner.get("/events", { queue_id: q.queue_id, last_event_id: 0, dont_block: true }));
    expect(again.events.map((e: any) => e.id)).toEqual([1]);
    const none = await ok(s.owner.get("/events", { queue_id: q.queue_id, last_event_id: 1, dont_block: true }));
    expect(none.events).toEqual([]);
  });

  test("each of a user's queues (devices) gets the event; event_types filters", async () => {
    const a = await ok(s.owner.post("/register", { event_types: ["realm_user"] }));
    const b = await ok(s.owner.post("/register", {}));
    const onlyPresence = await ok(s.owner.post("/register", { event_types: ["presence"] }));
    const u = await s.newUser();
    for (const q of [a, b]) {
      const got = await ok(s.owner.get("/events", { queue_id: q.queue_id, dont_block: true }));
      // The unfiltered queue also hears the new user join their role's system groups (user_group events).
      expect(got.events.filter((e: any) => e.type === "realm_user")).toEqual([
        expect.objectContaining({ type: "realm_user", op: "add", person: expect.objectContaining({ user_id: u.userId }) }),
      ]);
    }
    expect((await ok(s.owner.get("/events", { queue_id: onlyPresence.queue_id, dont_block: true }))).events).toEqual([]);
  });

  test("another user's queue id is refused like an unknown one", async () => {
    const q = await ok(s.owner.post("/register", {}));
    const eve = await s.newUser();
    await expectError(eve.get("/events", { queue_id: q.queue_id }), 400, "BAD_EVENT_QUEUE_ID", `Bad event queue ID: ${q.queue_id}`);
    await expectError(eve.delete("/events", { queue_id: "nope" }), 400, "BAD_EVENT_QUEUE_ID", "Bad event queue ID: nope");
  });

  test("regenerating the API key drops the user's queues", async () => {
    const u = await s.newUser();
    const q = await ok(u.post("/register", {}));
    const { regenerateApiKey } = await import("../../src/actions/users");
    const { findUserById } = await import("../../src/store/users");
    const key = await regenerateApiKey(s.app, (await findUserById(s.app.db, u.userId!))!);
    const again = s.client(u.email!, key, u.userId!);
    await expectError(again.get("/events", { queue_id: q.queue_id }), 400, "BAD_EVENT_QUEUE_ID", `Bad event queue ID: ${q.queue_id}`);
  });

  test("register reports idle_queue_timeout_secs, from the request or the configured default", async () => {
    expect((await ok(s.owner.post("/register", { fetch_event_types: [] }))).idle_queue_timeout_secs).toBe(600);
    expect((await ok(s.owner.post("/register", { fetch_event_types: [], idle_queue_timeout: 120 }))).idle_queue_timeout_secs).toBe(120);
  });

  test("unauthenticated register is refused while the realm has no spectator access", async () => {
    await expectError(s.anon.post("/register", {}), 401, "UNAUTHORIZED", "Not logged in: API authentication or user session required");
  });
});

describe("typing", () => {
  test("direct typing reaches every participant but no bystander, and is validated", async () => {
    const ann = await s.newUser();
    const bob = await s.newUser();
    const qa = await ok(ann.post("/register", { event_types: ["typing"] }));
    const qb = await ok(bob.post("/register", { event_types: ["typing"] }));
    const qo = await ok(s.owner.post("/register", { event_types: ["typing"] }));
    await ok(ann.post("/typing", { op: "start", to: [bob.userId] }));
    const expected = {
      type: "typing",
      op: "start",
      message_type: "direct",
      sender: { user_id: ann.userId, email: ann.email },
      recipients: expect.arrayContaining([
        { user_id: ann.userId, email: ann.email },
        { user_id: bob.userId, email: bob.email },
      ]),
    };
    expect((await ok(bob.get("/events", { queue_id: qb.queue_id, dont_block: true }))).events).toEqual([expect.objectContaining(expected)]);
    expect((await ok(ann.get("/events", { queue_id: qa.queue_id, dont_block: true }))).events).toEqual([expect.objectContaining(expected)]);
    expect((await ok(s.owner.get("/events", { queue_id: qo.queue_id, dont_block: true }))).events).toEqual([]);
    await expectError(ann.post("/typing", { op: "begin", to: [bob.userId] }), 400, "BAD_REQUEST", "Invalid op");
    await expectError(ann.post("/typing", { op: "start" }), 400, "BAD_REQUEST", "Missing 'to' argument");
    await expectError(ann.post("/typing", { op: "start", to: [] }), 400, "BAD_REQUEST", "Empty 'to' list");
    await expectError(ann.post("/typing", { op: "start", to: [99999] }), 400, "BAD_REQUEST", "Invalid user ID 99999");
  });
});

describe("collection", () => {
  test("a queue idle past its timeout is collected and then answers BAD_EVENT_QUEUE_ID", async () => {
    const g = await startServer({ env: { CONFAB_EVENTS_IDLE_QUEUE_TIMEOUT_SECONDS: "1", CONFAB_EVENTS_GC_INTERVAL_SECONDS: "1" } });
    try {
      const q = await ok(g.owner.post("/register", { fetch_event_types: [] }));
      expect(q.idle_queue_timeout_secs).toBe(1);
      await Bun.sleep(2500);
      await expectError(g.owner.get("/events", { queue_id: q.queue_id, dont_block: true }), 400, "BAD_EVENT_QUEUE_ID", `Bad event queue ID: ${q.queue_id}`);
      expect(g.app.queues.size).toBe(0);
    } finally {
      await g.stop();
    }
  });
});

describe("a queue too far behind", () => {
  test("past events.max_queue_events an unpolled queue is dropped; a polled one and the pending events' flags are kept", async () => {
    const g = await startServer({ env: { CONFAB_EVENTS_MAX_QUEUE_EVENTS: "3" } });
    try {
      const ann = await g.newUser();
      const behind = await ok(g.owner.post("/register", { event_types: ["message"], fetch_event_types: [] }));
      const polled = await ok(ann.post("/register", { event_types: ["message"], fetch_event_types: [] }));
      const poll = (lastEventId: number) => ann.get("/events", { queue_id: polled.queue_id, last_event_id: lastEventId });
      const sent: number[] = [];
      for (let i = 0; i < 3; i++)
        sent.push((await ok(ann.post("/messages", { type: "direct", to: [g.owner.userId], content: `hi @**|${g.owner.userId}** ${i}` }))).id);
      // The owner's queue holds 3 (its bound): still there, each event with the owner's own flags.
      const pending = (await ok(g.owner.get("/events", { queue_id: behind.queue_id, dont_block: true }))).events;
      expect(pending.map((e: any) => [e.message.id, e.flags])).toEqual(sent.map((id) => [id, ["mentioned"]]));
      // The sender's queue holds the same 3 with her own flags, and is then polled as events come.
      const own = (await ok(ann.get("/events", { queue_id: polled.queue_id, dont_block: true }))).events;
      expect(own.map((e: any) => [e.message.id, e.flags])).toEqual(sent.map((id) => [id, ["read"]]));
      let last = own.at(-1).id;
      for (let i = 0; i < 3; i++) {
        const waiting = poll(last);
        await Bun.sleep(20);
        const id = (await ok(ann.post("/messages", { type: "direct", to: [g.owner.userId], content: `more ${i}` }))).id;
        const got = (await ok(waiting)).events;
        expect(got.map((e: any) => [e.message.id, e.flags])).toEqual([[id, ["read"]]]);
        last = got.at(-1).id;
      }
      // The owner's queue passed its bound with nobody polling: gone, and its client is told to register again.
      await expectError(
        g.owner.get("/events", { queue_id: behind.queue_id, dont_block: true }),
        400,
        "BAD_EVENT_QUEUE_ID",
        `Bad event queue ID: ${behind.queue_id}`,
      );
      expect((await ok(ann.get("/events", { queue_id: polled.queue_id, last_event_id: last, dont_block: true }))).events).toEqual([]);
    } finally {
      await g.stop();
    }
  });
});

describe("channel typing", () => {
  test("reaches subscribers but the sender, only with stream_typing_notifications; the empty topic as the client can take it", async () => {
    const ann = await s.newUser();
    const bob = await s.newUser();
    const { id: stream_id } = await ok(s.owner.post("/channels/create", { name: "typing-room", subscribers: [ann.userId, bob.userId, s.owner.userId] }));
    const plain = await ok(bob.post("/register", { event_types: ["typing"] }));
    const capable = await ok(bob.post("/register", { event_types: ["typing"], client_capabilities: { stream_typing_notifications: true } }));
    const modern = await ok(
      bob.post("/register", { event_types: ["typing"], client_capabilities: { stream_typing_notifications: true, empty_topic_name: true } }),
    );
    const own = await ok(ann.post("/register", { event_types: ["typing"], client_capabilities: { stream_typing_notifications: true } }));
    await ok(ann.post("/typing", { type: "stream", op: "start", stream_id, topic: "" }));
    const got = (q: any) => bob.get("/events", { queue_id: q.queue_id, dont_block: true }).then((r) => r.events);
    expect(await got(plain)).toEqual([]);
    expect(await got(capable)).toEqual([
      { id: 0, type: "typing", op: "start", message_type: "stream", sender: { user_id: ann.userId, email: ann.email }, stream_id, topic: "general chat" },
    ]);
    expect((await got(modern))[0].topic).toBe("");
    expect((await ok(ann.get("/events", { queue_id: own.queue_id, dont_block: true }))).events).toEqual([]);
    await expectError(ann.post("/typing", { type: "stream", op: "start", topic: "x" }), 400, "BAD_REQUEST", "Missing 'stream_id' argument");
  });

  test("users who turned off receives_typing_notifications hear nothing", async () => {
    const ann = await s.newUser();
    const quiet = await s.newUser();
    await ok(quiet.patch("/settings", { receives_typing_notifications: false }));
    const q = await ok(quiet.post("/register", { event_types: ["typing"] }));
    await ok(ann.post("/typing", { op: "start", to: [quiet.userId] }));
    expect((await ok(quiet.get("/events", { queue_id: q.queue_id, dont_block: true }))).events).toEqual([]);
  });
});

describe("message events", () => {
  test("register's narrow filters message events; all_public_streams adds public channels one is not in", async () => {
    const ann = await s.newUser();
    const bob = await s.newUser();
    await ok(s.owner.post("/channels/create", { name: "narrow-a", subscribers: [ann.userId, bob.userId] }));
    await ok(s.owner.post("/channels/create", { name: "narrow-b", subscribers: [ann.userId] }));
    const dmOnly = await ok(ann.post("/register", { event_types: ["message"], narrow: [["is", "dm"]] }));
    const channelA = await ok(ann.post("/register", { event_types: ["message"], narrow: [["channel", "narrow-a"]] }));
    const notA = await ok(ann.post("/register", { event_types: ["message"], narrow: [["-channel", "narrow-a"]] }));
    const bobAll = await ok(bob.post("/register", { event_types: ["message"], all_public_streams: true }));
    const bobPlain = await ok(bob.post("/register", { event_types: ["message"] }));

    const inA = (await ok(s.owner.post("/messages", { type: "stream", to: "narrow-a", topic: "t", content: "in a" }))).id;
    const inB = (await ok(s.owner.post("/messages", { type: "stream", to: "narrow-b", topic: "t", content: "in b" }))).id;
    const dm = (await ok(bob.post("/messages", { type: "direct", to: [ann.userId], content: "psst" }))).id;

    const ids = async (c: any, q: any) => (await ok(c.get("/events", { queue_id: q.queue_id, dont_block: true }))).events.map((e: any) => e.message.id);
    expect(await ids(ann, dmOnly)).toEqual([dm]);
    expect(await ids(ann, channelA)).toEqual([inA]);
    expect(await ids(ann, notA)).toEqual([inB, dm]);
    expect(await ids(bob, bobAll)).toEqual([inA, inB, dm]);
    expect(await ids(bob, bobPlain)).toEqual([inA, dm]);
  });

  test("each queue sees the message as its client asked: flags per user, HTML or Markdown", async () => {
    const ann = await s.newUser({ name: "Ann Flags" });
    const html = await ok(ann.post("/register", { event_types: ["message"], apply_markdown: true }));
    const raw = await ok(ann.post("/register", { event_types: ["message"], apply_markdown: false }));
    const sender = await ok(s.owner.post("/register", { event_types: ["message"] }));
    await ok(s.owner.post("/messages", { type: "direct", to: [ann.userId], content: "**hi** @**Ann Flags**" }));
    const [h] = (await ok(ann.get("/events", { queue_id: html.queue_id, dont_block: true }))).events;
    const [r] = (await ok(ann.get("/events", { queue_id: raw.queue_id, dont_block: true }))).events;
    const [o] = (await ok(s.owner.get("/events", { queue_id: sender.queue_id, dont_block: true }))).events;
    expect(h.message.content).toContain("<strong>hi</strong>");
    expect(h.message.content_type).toBe("text/html");
    expect(r.message.content).toBe("**hi** @**Ann Flags**");
    expect(r.message.content_type).toBe("text/x-markdown");
    expect(h.flags).toEqual(["mentioned"]);
    expect(o.flags).toContain("read");
    expect(o.flags).not.toContain("mentioned");
  });
});

describe("notification_settings_null", () => {
  test("null channel notification settings reach old clients as the personal setting they inherit", async () => {
    const ann = await s.newUser();
    await ok(ann.patch("/settings", { enable_stream_desktop_notifications: true, enable_stream_push_notifications: false }));
    const modern = await ok(ann.post("/register", { event_types: ["subscription"], client_capabilities: { notification_settings_null: true } }));
    const old = await ok(ann.post("/register", { event_types: ["subscription"] }));
    const { id } = await ok(s.owner.post("/channels/create", { name: "inherit-room", subscribers: [ann.userId] }));
    const [m] = (await ok(ann.get("/events", { queue_id: modern.queue_id, dont_block: true }))).events.filter((e: any) => e.op === "add");
    const [o] = (await ok(ann.get("/events", { queue_id: old.queue_id, dont_block: true }))).events.filter((e: any) => e.op === "add");
    expect(m.subscriptions[0]).toMatchObject({ stream_id: id, desktop_notifications: null, push_notifications: null });
    expect(o.subscriptions[0]).toMatchObject({ stream_id: id, desktop_notifications: true, push_notifications: false });
    expect(o.inherit).toBeUndefined();

    const stateOf = async (caps: object) =>
      (await ok(ann.post("/register", { fetch_event_types: ["subscription"], client_capabilities: caps }))).subscriptions.find((x: any) => x.stream_id === id);
    expect(await stateOf({ notification_settings_null: true })).toMatchObject({ desktop_notifications: null });
    expect(await stateOf({})).toMatchObject({ desktop_notifications: true, push_notifications: false });

    const q2 = await ok(ann.post("/register", { event_types: ["subscription"] }));
    await ok(ann.post("/users/me/subscriptions/properties", { subscription_data: [{ stream_id: id, property: "desktop_notifications", value: null }] }));
    const ev = (await ok(ann.get("/events", { queue_id: q2.queue_id, dont_block: true }))).events;
    expect(ev).toEqual([expect.objectContaining({ op: "update", property: "desktop_notifications", value: true })]);
  });
});

describe("spectators", () => {
  test("with spectator access, an unauthenticated register gets web-public channels, no queue and no people", async () => {
    const g = await startServer();
    try {
      const ann = await g.newUser({ name: "Private Person" });
      await ok(g.owner.patch("/realm", { enable_spectator_access: true }));
      const { id: open } = await ok(g.owner.post("/channels/create", { name: "open-to-all", subscribers: [ann.userId], is_web_public: true }));
      await ok(g.owner.post("/channels/create", { name: "members-only", subscribers: [ann.userId] }));
      const r = await ok(g.anon.post("/register", {}));
      expect(r.queue_id).toBeNull();
      expect(r.streams.map((c: any) => c.stream_id)).toEqual([open]);
      expect(r.never_subscribed.map((c: any) => c.stream_id)).toEqual([open]);
      expect(r.realm_users).toEqual([]);
      expect(r.realm_user_groups).toEqual([]);
      expect(JSON.stringify(r)).not.toContain("Private Person");
      expect(JSON.stringify(r)).not.toContain(ann.email);
    } finally {
      await g.stop();
    }
  });
});

describe("local echo", () => {
  test("the sending queue's message event carries local_message_id; other queues' do not", async () => {
    const ann = await s.newUser();
    const mine = await ok(s.owner.post("/register", { event_types: ["message"] }));
    const other = await ok(s.owner.post("/register", { event_types: ["message"] }));
    const theirs = await ok(ann.post("/register", { event_types: ["message"] }));
    await ok(s.owner.post("/messages", { type: "direct", to: [ann.userId], content: "echo me", queue_id: mine.queue_id, local_id: "17.01" }));
    const [m] = (await ok(s.owner.get("/events", { queue_id: mine.queue_id, dont_block: true }))).events;
    const [o] = (await ok(s.owner.get("/events", { queue_id: other.queue_id, dont_block: true }))).events;
    const [t] = (await ok(ann.get("/events", { queue_id: theirs.queue_id, dont_block: true }))).events;
    expect(m.local_message_id).toBe("17.01");
    expect(o.local_message_id).toBeUndefined();
    expect(t.local_message_id).toBeUndefined();
    expect(m.local_echo).toBeUndefined();
  });
});
