// GET /messages: anchors, ranges, errors, the narrow grammar over HTTP, search, and who sees what.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Client } from "../helpers/client";
import { expectError, ok } from "../helpers/client";
import { startServer, type TestServer } from "../helpers/server";

let s: TestServer;
let ann: Client, bob: Client, cat: Client, guest: Client;
let lobby: number, vault: number, den: number;
const ids: Record<string, number> = {};

const send = async (c: Client, key: string, to: string | number, topic: string, content: string) =>
  (ids[key] = (await ok(c.post("/messages", { type: "stream", to, topic, content }))).id);
const dm = async (c: Client, key: string, to: number[], content: string) =>
  (ids[key] = (await ok(c.post("/messages", { type: "direct", to: JSON.stringify(to), content }))).id);
const fetchIds = async (c: Client, narrow: unknown, extra: Record<string, unknown> = {}) =>
  (await ok(c.get("/messages", { anchor: "newest", num_before: 100, num_after: 0, narrow, ...extra }))).messages.map((m: any) => m.id) as number[];
const only = (...keys: string[]) => keys.map((k) => ids[k]).sort((a, b) => a! - b!);

beforeAll(async () => {
  s = await startServer();
  ann = await s.newUser({ name: "Ann Fetch", email: "ann@fetch.test" });
  bob = await s.newUser({ name: "Bob Fetch", email: "bob@fetch.test" });
  cat = await s.newUser({ name: "Cat Fetch", email: "cat@fetch.test" });
  guest = await s.newUser({ name: "Guy Guest", role: 600 });
  lobby = (await ok(ann.post("/channels/create", { name: "lobby", subscribers: [ann.userId, bob.userId, guest.userId] }))).id;
  vault = (
    await ok(ann.post("/channels/create", { name: "vault", subscribers: [ann.userId, bob.userId], invite_only: true, history_public_to_subscribers: false }))
  ).id;
  den = (await ok(ann.post("/channels/create", { name: "den", subscribers: [ann.userId], invite_only: true, history_public_to_subscribers: true }))).id;
  await send(ann, "lunch", "lobby", "Lunch", "Who wants **pizza** for lunch?");
  await send(bob, "lunch2", "lobby", "lunch", "I am walking over, see https://example.com/menu");
  await send(bob, "plans", "lobby", "plans", "The big plan is ready @**Ann Fetch**");
  await send(ann, "resolved", "lobby", "✔ done", "finished");
  await send(ann, "vault1", vault, "secrets", "hidden treasure");
  await send(ann, "den1", den, "cozy", "warm fire");
  await dm(ann, "dm1", [bob.userId!], "private hello");
  await dm(bob, "group1", [ann.userId!, cat.userId!], "group chat");
  await dm(cat, "self", [cat.userId!], "note to self");
  // Cat joins the protected-history channel and the shared-history one after their first messages.
  await ok(ann.post("/users/me/subscriptions", { subscriptions: [{ name: "vault" }, { name: "den" }], principals: [cat.userId] }));
  await send(ann, "vault2", vault, "secrets", "new treasure");
});
afterAll(() => s.stop());

describe("anchors and ranges", () => {
  test("newest and oldest; found flags", async () => {
    const r = await ok(bob.get("/messages", { anchor: "newest", num_before: 2, num_after: 0, narrow: [["channel", "lobby"]] }));
    expect(r.messages.map((m: any) => m.id)).toEqual(only("plans", "resolved"));
    expect(r).toMatchObject({ found_newest: true, found_oldest: false, found_anchor: false, history_limited: false, anchor: 10000000000000000 });
    const o = await ok(bob.get("/messages", { anchor: "oldest", num_before: 0, num_after: 2, narrow: [["channel", "lobby"]] }));
    expect(o.messages[0].subject).toBe("channel events");
    expect(o).toMatchObject({ found_oldest: true, found_newest: false, anchor: 0 });
  });

  test("an id anchor, include_anchor, a missing anchor message", async () => {
    const n = [["channel", "lobby"]];
    const r = await ok(bob.get("/messages", { anchor: String(ids.lunch2), num_before: 1, num_after: 1, narrow: n }));
    expect(r.messages.map((m: any) => m.id)).toEqual(only("lunch", "lunch2", "plans"));
    expect(r.found_anchor).toBe(true);
    const x = await ok(bob.get("/messages", { anchor: String(ids.lunch2), include_anchor: false, num_before: 0, num_after: 1, narrow: n }));
    expect(x.messages.map((m: any) => m.id)).toEqual(only("plans"));
    expect(x.found_anchor).toBe(false);
    const miss = await ok(bob.get("/messages", { anchor: String(ids.dm1), num_before: 1, num_after: 0, narrow: n }));
    expect(miss.found_anchor).toBe(false);
    expect(miss.messages.map((m: any) => m.id)).toEqual(only("resolved"));
  });

  test("first_unread (and the deprecated use_first_unread_anchor), date", async () => {
    // Ann's own messages are read; the first unread in her lunch topic is Bob's.
    const r = await ok(
      ann.get("/messages", {
        anchor: "first_unread",
        num_before: 0,
        num_after: 1,
        narrow: [
          ["channel", "lobby"],
          ["topic", "lunch"],
        ],
      }),
    );
    expect(r.anchor).toBe(ids.lunch2);
    expect(r.found_anchor).toBe(true);
    const u = await ok(
      ann.get("/messages", {
        use_first_unread_anchor: true,
        num_before: 0,
        num_after: 1,
        narrow: [
          ["channel", "lobby"],
          ["topic", "lunch"],
        ],
      }),
    );
    expect(u.anchor).toBe(ids.lunch2);
    const none = await ok(
      ann.get("/messages", {
        anchor: "first_unread",
        num_before: 1,
        num_after: 1,
        narrow: [
          ["sender", "ann@fetch.test"],
          ["is", "unread"],
        ],
      }),
    );
    expect(none.anchor).toBe(10000000000000000);
    const d = await ok(bob.get("/messages", { anchor: "date", anchor_date: "2000-01-01", num_before: 0, num_after: 1 }));
    // The anchor is the first message on or after the date, then num_after more.
    expect(d.messages.length).toBe(2);
    expect(d.found_anchor).toBe(true);
    const future = await ok(bob.get("/messages", { anchor: "date", anchor_date: "2999-01-01T10:00:00Z", num_before: 1, num_after: 0 }));
    expect(future.anchor).toBe(10000000000000000);
  });

  test("message_ids: the accessible matching subset, no anchor", async () => {
    const r = await ok(cat.get("/messages", { message_ids: JSON.stringify([ids.lunch, ids.vault1, ids.vault2, ids.dm1, 999999]) }));
    expect(r.messages.map((m: any) => m.id)).toEqual(only("vault2"));
    expect(r.anchor).toBeUndefined();
    const n = await ok(bob.get("/messages", { message_ids: JSON.stringify([ids.lunch, ids.plans]), narrow: [["topic", "plans"]] }));
    expect(n.messages.map((m: any) => m.id)).toEqual(only("plans"));
  });
});

describe("fetch errors", () => {
  test("each one", async () => {
    await expectError(bob.get("/messages", { anchor: "newest", num_after: 0 }), 400, "REQUEST_VARIABLE_MISSING", "Missing 'num_before' argument");
    await expectError(bob.get("/messages", { anchor: "newest", num_before: 0 }), 400, "REQUEST_VARIABLE_MISSING", "Missing 'num_after' argument");
    const inc = await expectError(
      bob.get("/messages", { message_ids: "[1]", anchor: "newest" }),
      400,
      "BAD_REQUEST",
      "Unsupported parameter combination: num_before, num_after, anchor, message_ids, include_anchor, use_first_unread_anchor",
    );
    expect(inc.parameters).toBe("num_before, num_after, anchor, message_ids, include_anchor, use_first_unread_anchor");
    await expectError(bob.get("/messages", { message_ids: "[1]", include_anchor: false }), 400, "BAD_REQUEST", /^Unsupported parameter combination/);
    await expectError(
      bob.get("/messages", { anchor: "newest", num_before: 4000, num_after: 1001 }),
      400,
      "BAD_REQUEST",
      "Too many messages requested (maximum 5000).",
    );
    await expectError(
      bob.get("/messages", { anchor: "10", include_anchor: false, num_before: 1, num_after: 1 }),
      400,
      "BAD_REQUEST",
      "The anchor can only be excluded at an end of the range",
    );
    await expectError(bob.get("/messages", { anchor: "soonest", num_before: 1, num_after: 1 }), 400, "BAD_REQUEST", "Invalid anchor");
    await expectError(bob.get("/messages", { anchor: "newest", num_before: -1, num_after: 0 }), 400, "BAD_REQUEST", "num_before is too small");
    await expectError(bob.get("/messages", { num_before: 1, num_after: 0 }), 400, "REQUEST_VARIABLE_MISSING", "Missing 'anchor' argument");
    const bad = await expectError(
      bob.get("/messages", { anchor: "newest", num_before: 1, num_after: 0, narrow: [["frobnicate", "x"]] }),
      400,
      "BAD_NARROW",
      "Invalid narrow operator: unknown operator frobnicate",
    );
    expect(bad.desc).toBe("unknown operator frobnicate");
    await expectError(
      bob.get("/messages", { anchor: "newest", num_before: 1, num_after: 0, narrow: "not json" }),
      400,
      "BAD_REQUEST",
      "narrow is not valid JSON",
    );
    await expectError(
      s.anon.get("/messages", { anchor: "newest", num_before: 1, num_after: 0 }),
      401,
      "UNAUTHORIZED",
      "Not logged in: API authentication or user session required",
    );
  });
});

describe("narrow operators over HTTP", () => {
  const cases: [string, () => unknown, () => number[]][] = [
    [
      "channel by name",
      () => [
        ["channel", "lobby"],
        ["topic", "lunch"],
      ],
      () => only("lunch", "lunch2"),
    ],
    [
      "stream by id (object form)",
      () => [
        { operator: "stream", operand: lobby },
        { operator: "topic", operand: "plans" },
      ],
      () => only("plans"),
    ],
    [
      "negated topic",
      () => [
        { operator: "channel", operand: "lobby" },
        { operator: "topic", operand: "lunch", negated: true },
        { operator: "topic", operand: "channel events", negated: true },
      ],
      () => only("plans", "resolved"),
    ],
    [
      "channels:public + sender",
      () => [
        ["channels", "public"],
        ["sender", "bob@fetch.test"],
      ],
      () => only("lunch2", "plans"),
    ],
    ["sender by id", () => [{ operator: "sender", operand: 0 }], () => only("lunch2", "plans", "group1")],
    [
      "negated sender in a channel",
      () => [
        { operator: "channel", operand: "lobby" },
        { operator: "sender", operand: 0, negated: true },
        { operator: "topic", operand: "channel events", negated: true },
      ],
      () => only("lunch", "resolved"),
    ],
    ["dm by email", () => [["dm", "ann@fetch.test"]], () => only("dm1")],
    ["dm by ids (group)", () => [{ operator: "dm", operand: [0, 0] }], () => only("group1")],
    ["dm-including", () => [["dm-including", "ann@fetch.test"]], () => only("dm1", "group1")],
    ["group-pm-with", () => [["group-pm-with", "ann@fetch.test"]], () => only("group1")],
    ["is:dm", () => [["is", "dm"]], () => only("dm1", "group1")],
    [
      "is:private negated",
      () => [
        { operator: "is", operand: "private", negated: true },
        { operator: "sender", operand: 0 },
      ],
      () => only("lunch2", "plans"),
    ],
    ["is:mentioned", () => [["is", "mentioned"]], () => []],
    ["is:resolved", () => [["is", "resolved"]], () => only("resolved")],
    ["has:link", () => [["has", "link"]], () => only("lunch2")],
    ["has:link negated in a topic", () => [["channel", "lobby"], ["topic", "lunch"], { operator: "has", operand: "link", negated: true }], () => only("lunch")],
    ["id", () => [{ operator: "id", operand: ids.plans }], () => only("plans")],
    // No confab message is a thread reply: a thread is its root alone.
    ["thread", () => [{ operator: "thread", operand: ids.plans }], () => only("plans")],
    [
      "thread negated in a topic",
      () => [["channel", "lobby"], ["topic", "plans"], { operator: "thread", operand: String(ids.plans), negated: true }],
      () => [],
    ],
    [
      "near filters nothing",
      () => [
        ["channel", "lobby"],
        ["topic", "plans"],
        ["near", String(ids.plans)],
      ],
      () => only("plans"),
    ],
    [
      "with: the message's conversation",
      () => [
        { operator: "with", operand: ids.lunch },
        { operator: "channel", operand: "den" },
      ],
      () => only("lunch", "lunch2"),
    ],
  ];
  for (const [name, narrow, expected] of cases)
    test(name, async () => {
      const n = JSON.parse(
        JSON.stringify(narrow())
          .replace(/"operand":0([,}])/g, `"operand":${bob.userId}$1`)
          .replace('"operand":[0,0]', `"operand":[${ann.userId},${cat.userId}]`),
      );
      expect(await fetchIds(bob, n)).toEqual(expected());
    });

  test("is:starred, is:unread, is:mentioned, is:followed, is:muted, has:reaction for the viewer", async () => {
    await ok(ann.post("/messages/flags", { messages: JSON.stringify([ids.lunch2]), op: "add", flag: "starred" }));
    expect(await fetchIds(ann, [["is", "starred"]])).toEqual(only("lunch2"));
    expect(await fetchIds(ann, [["is", "mentioned"]])).toEqual(only("plans"));
    expect(
      await fetchIds(ann, [
        ["is", "unread"],
        ["channel", "lobby"],
        ["sender", "bob@fetch.test"],
      ]),
    ).toEqual(only("lunch2", "plans"));
    await ok(ann.post("/user_topics", { stream_id: lobby, topic: "plans", visibility_policy: 3 }));
    await ok(ann.post("/user_topics", { stream_id: lobby, topic: "lunch", visibility_policy: 1 }));
    expect(await fetchIds(ann, [["is", "followed"]])).toEqual(only("plans"));
    expect(await fetchIds(ann, [["is", "muted"]])).toEqual(only("lunch", "lunch2"));
    expect(
      await fetchIds(ann, [
        ["channel", "lobby"],
        ["in", "home"],
        ["topic", "lunch"],
      ]),
    ).toEqual([]);
  });

  test("search: stemmed words, phrases, stop words, highlights", async () => {
    const r = await ok(bob.get("/messages", { anchor: "newest", num_before: 10, num_after: 0, narrow: [["search", "walk"]] }));
    expect(r.messages.map((m: any) => m.id)).toEqual(only("lunch2"));
    expect(r.messages[0].match_content).toContain('<span class="highlight">walking</span>');
    expect(r.messages[0].match_subject).toBe("lunch");
    const t = await ok(
      bob.get("/messages", {
        anchor: "newest",
        num_before: 10,
        num_after: 0,
        narrow: [
          ["channel", "lobby"],
          ["search", "LUNCH"],
        ],
      }),
    );
    expect(t.messages.map((m: any) => m.id)).toEqual(only("lunch", "lunch2"));
    expect(t.messages[0].match_subject).toBe('<span class="highlight">Lunch</span>');
    expect(await fetchIds(bob, [["search", '"big plan"']])).toEqual(only("plans"));
    expect(await fetchIds(bob, [["search", '"plan big"']])).toEqual([]);
    expect(await fetchIds(bob, [["search", "the is"]])).toEqual([]);
    expect(await fetchIds(bob, [{ operator: "search", operand: "pizza", negated: true }, ["channel", "lobby"], ["topic", "lunch"]])).toEqual(only("lunch2"));
    expect(await fetchIds(bob, [{ operator: "search", operand: "pizza", negated: true }, ["search", "lunch"]])).toEqual(only("lunch2"));
    // Private history stays private: cat cannot find vault's first message.
    expect(await fetchIds(cat, [["search", "treasure"]])).toEqual(only("vault2"));
  });

  test("matches_narrow", async () => {
    const r = await ok(
      bob.get("/messages/matches_narrow", { msg_ids: JSON.stringify([ids.lunch, ids.lunch2, ids.plans]), narrow: JSON.stringify([["search", "lunch"]]) }),
    );
    expect(Object.keys(r.messages).map(Number).sort()).toEqual(only("lunch", "lunch2"));
    expect(r.messages[String(ids.lunch)].match_content).toContain('<span class="highlight">lunch</span>');
  });
});

describe("who sees what", () => {
  test("a private channel: non-subscribers get nothing; protected history hides earlier messages", async () => {
    const other = await s.newUser();
    expect(await fetchIds(other, [["channel", "vault"]])).toEqual([]);
    expect(await fetchIds(cat, [["channel", "vault"]])).toEqual(only("vault2"));
    await expectError(cat.get(`/messages/${ids.vault1}`), 400, "BAD_REQUEST", "Invalid message(s)");
  });

  test("shared history: a later subscriber reads earlier messages, flagged historical", async () => {
    const r = await ok(
      cat.get("/messages", {
        anchor: "newest",
        num_before: 10,
        num_after: 0,
        narrow: [
          ["channel", "den"],
          ["topic", "cozy"],
        ],
      }),
    );
    expect(r.messages.map((m: any) => [m.id, m.flags])).toEqual([[ids.den1, ["read", "historical"]]]);
  });

  test("public history: unsubscribed members read it; guests only what they received", async () => {
    const other = await s.newUser();
    expect(
      await fetchIds(other, [
        ["channel", "lobby"],
        ["topic", "plans"],
      ]),
    ).toEqual(only("plans"));
    expect(await fetchIds(other, [])).toEqual([]);
    expect(
      await fetchIds(guest, [
        ["channel", "lobby"],
        ["topic", "plans"],
      ]),
    ).toEqual(only("plans"));
    const late = (await ok(ann.post("/channels/create", { name: "late", subscribers: [ann.userId] }))).id;
    await send(ann, "late1", late, "t", "before the guest");
    expect(await fetchIds(guest, [["channel", "late"]])).toEqual([]);
  });

  test("views: apply_markdown, client_gravatar, allow_empty_topic_name", async () => {
    await send(ann, "empty", "lobby", "", "no topic here");
    const get = (extra: Record<string, unknown>) => ok(bob.get("/messages", { anchor: String(ids.empty), num_before: 0, num_after: 0, ...extra }));
    const a = (await get({ apply_markdown: false, client_gravatar: false })).messages[0];
    expect(a).toMatchObject({ content: "no topic here", content_type: "text/x-markdown", subject: "general chat" });
    expect(a.avatar_url).toStartWith("https://");
    const b = (await get({ allow_empty_topic_name: true })).messages[0];
    expect(b).toMatchObject({ content: "<p>no topic here</p>", subject: "", avatar_url: null });
    expect(
      await fetchIds(bob, [
        ["channel", "lobby"],
        ["topic", "general chat"],
      ]),
    ).toEqual(only("empty"));
  });

  test("spectators: web-public channels only, with streams:web-public in the narrow", async () => {
    await ok(s.owner.patch("/realm", { enable_spectator_access: true }));
    const web = (await ok(s.owner.post("/channels/create", { name: "open-air", subscribers: [s.owner.userId], is_web_public: true }))).id;
    await send(s.owner, "web1", web, "hello", "hi world");
    const r = await ok(
      s.anon.get("/messages", { anchor: "newest", num_before: 10, num_after: 0, narrow: JSON.stringify([{ operator: "channels", operand: "web-public" }]) }),
    );
    expect(r.messages.map((m: any) => m.id)).toContain(ids.web1);
    expect(r.messages.every((m: any) => m.display_recipient === "open-air")).toBe(true);
    expect(r.messages[0].flags).toEqual(["read", "historical"]);
    await expectError(
      s.anon.get("/messages", { anchor: "newest", num_before: 1, num_after: 0, narrow: JSON.stringify([["channel", "lobby"]]) }),
      401,
      "UNAUTHORIZED",
      "Not logged in: API authentication or user session required",
    );
    await expectError(
      s.anon.get("/messages", {
        anchor: "newest",
        num_before: 1,
        num_after: 0,
        narrow: JSON.stringify([
          ["channels", "web-public"],
          ["channel", "lobby"],
        ]),
      }),
      400,
      "BAD_NARROW",
      "Invalid narrow operator: unknown web-public channel lobby",
    );
    expect((await ok(s.anon.get(`/messages/${ids.web1}`))).message.id).toBe(ids.web1);
  });
});
