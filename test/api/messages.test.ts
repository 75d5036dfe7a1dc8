import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Client } from "../helpers/client";
import { drain } from "../helpers/events";
import { expectError, ok } from "../helpers/client";
import { startServer, type TestServer } from "../helpers/server";

let s: TestServer;
let ann: Client;
let bob: Client;
let cat: Client;
let guest: Client;
let general: number;
beforeAll(async () => {
  s = await startServer();
  ann = await s.newUser({ name: "Ann Sender" });
  bob = await s.newUser({ name: "Bob Reader" });
  cat = await s.newUser({ name: "Cat Other" });
  guest = await s.newUser({ name: "Gil Guest", role: 600 });
  general = (await ok(ann.post("/channels/create", { name: "general", subscribers: [ann.userId, bob.userId] }))).id;
});
afterAll(() => s.stop());

describe("POST /messages", () => {
  test("to a channel: id answered; recipients get one event with their own flags; mentions flag", async () => {
    const qb = await ok(bob.post("/register", { event_types: ["message"], apply_markdown: true, client_gravatar: true }));
    const qa = await ok(
      ann.post("/register", { event_types: ["message"], apply_markdown: false, client_gravatar: false, client_capabilities: { empty_topic_name: true } }),
    );
    const { id } = await ok(ann.post("/messages", { type: "stream", to: "general", topic: "greetings", content: "hi @**Bob Reader** *there*" }));
    const [eb] = await drain(bob, qb.queue_id);
    expect(eb.message).toMatchObject({
      id,
      content: '<p>hi <span class="user-mention" data-user-id="' + bob.userId + '">@Bob Reader</span> <em>there</em></p>',
      content_type: "text/html",
      subject: "greetings",
      display_recipient: "general",
      stream_id: general,
      type: "stream",
      avatar_url: null,
      sender_id: ann.userId,
    });
    expect(eb.flags).toEqual(["mentioned"]);
    const [ea] = await drain(ann, qa.queue_id);
    expect(ea.message).toMatchObject({ content: "hi @**Bob Reader** *there*", content_type: "text/x-markdown" });
    expect(ea.message.avatar_url).toStartWith("https://secure.gravatar.com/");
    expect(ea.flags).toEqual(["read"]);
  });

  test("alert words flag has_alert_word (whole words, any case); is:alerted finds it", async () => {
    await ok(bob.post("/users/me/alert_words", { alert_words: JSON.stringify(["deploy"]) }));
    const hit = (await ok(ann.post("/messages", { type: "stream", to: general, topic: "ops", content: "Time to DEPLOY now" }))).id;
    await ok(ann.post("/messages", { type: "stream", to: general, topic: "ops", content: "redeployment is not a match" }));
    expect((await ok(bob.get(`/messages/${hit}`))).message.flags).toEqual(["has_alert_word"]);
    const r = await ok(bob.get("/messages", { anchor: "newest", num_before: 10, num_after: 0, narrow: JSON.stringify([["is", "alerted"]]) }));
    expect(r.messages.map((m: any) => m.id)).toEqual([hit]);
  });

  test("by channel id, by JSON list, unknown channels, empty and oversized content", async () => {
    await ok(ann.post("/messages", { type: "channel", to: general, topic: "t", content: "by id" }));
    await ok(ann.post("/messages", { type: "stream", to: JSON.stringify(["general"]), topic: "t", content: "by list" }));
    await expectError(
      ann.post("/messages", { type: "stream", to: "nowhere", topic: "t", content: "x" }),
      400,
      "STREAM_DOES_NOT_EXIST",
      "Channel 'nowhere' does not exist",
    );
    // Zulip's file lists NonExistingChannelIdError (with stream_id) elsewhere but not for this operation.
    const e = await expectError(
      ann.post("/messages", { type: "stream", to: 99999, topic: "t", content: "x" }, { unchecked: true }),
      400,
      "STREAM_DOES_NOT_EXIST",
      "Channel with ID '99999' does not exist",
    );
    expect(e.stream_id).toBe(99999);
    await expectError(ann.post("/messages", { type: "stream", to: general, topic: "t", content: "   " }), 400, "BAD_REQUEST", "Message must not be empty");
    await expectError(
      ann.post("/messages", { type: "stream", to: JSON.stringify([1, 2]), topic: "t", content: "x" }),
      400,
      "BAD_REQUEST",
      "Cannot send to multiple channels",
    );
    const { id } = await ok(ann.post("/messages", { type: "stream", to: general, topic: "y".repeat(80), content: "z".repeat(10050) }));
    const m = (await ok(ann.get(`/messages/${id}`, { apply_markdown: false }))).message;
    expect(m.subject).toBe("y".repeat(57) + "...");
    expect(m.content.length).toBe(10000);
    expect(m.content.endsWith("\n[message truncated]")).toBe(true);
  });

  test("private channels: only subscribers post; guests only where subscribed", async () => {
    const { id } = await ok(ann.post("/channels/create", { name: "hush", subscribers: [ann.userId], invite_only: true }));
    await expectError(
      bob.post("/messages", { type: "stream", to: id, topic: "t", content: "x" }),
      400,
      "BAD_REQUEST",
      "Not authorized to send to channel 'hush'",
    );
    await expectError(
      guest.post("/messages", { type: "stream", to: general, topic: "t", content: "x" }),
      400,
      "BAD_REQUEST",
      "Not authorized to send to channel 'general'",
    );
  });

  test("empty topic: display name for clients without support; topics_policy refuses it", async () => {
    const qb = await ok(bob.post("/register", { event_types: ["message"] }));
    await ok(ann.post("/messages", { type: "stream", to: general, topic: "", content: "general chat message" }));
    expect((await drain(bob, qb.queue_id))[0].message.subject).toBe("general chat");
    const { id } = await ok(ann.post("/channels/create", { name: "strict", subscribers: [ann.userId], topics_policy: "disable_empty_topic" }));
    await expectError(
      ann.post("/messages", { type: "stream", to: id, content: "x" }),
      400,
      "BAD_REQUEST",
      "Sending messages to the general chat is not allowed in this channel.",
    );
    const only = (await ok(ann.post("/channels/create", { name: "chatter", subscribers: [ann.userId], topics_policy: "empty_topic_only" }))).id;
    await expectError(
      ann.post("/messages", { type: "stream", to: only, topic: "named", content: "x" }),
      400,
      "BAD_REQUEST",
      "Only the general chat topic is allowed in this channel.",
    );
  });

  test("direct messages: one-to-one, group, to self; bad recipients", async () => {
    const qb = await ok(bob.post("/register", { event_types: ["message"] }));
    const one = await ok(ann.post("/messages", { type: "direct", to: JSON.stringify([bob.userId]), content: "psst" }));
    const group = await ok(ann.post("/messages", { type: "private", to: `${s.owner.email},${cat.email}`, content: "all of us" }));
    const self = await ok(ann.post("/messages", { type: "direct", to: JSON.stringify([ann.userId]), content: "note" }));
    const evs = await drain(bob, qb.queue_id);
    expect(evs.map((e) => e.message.id)).toEqual([one.id]);
    expect(evs[0].message.display_recipient.map((r: any) => r.id)).toEqual([ann.userId!, bob.userId!].sort((a, b) => a - b));
    const g = (await ok(cat.get(`/messages/${group.id}`))).message;
    expect(g.display_recipient.map((r: any) => r.email).sort()).toEqual([ann.email, cat.email, s.owner.email].sort());
    expect((await ok(ann.get(`/messages/${self.id}`))).message.display_recipient).toEqual([expect.objectContaining({ id: ann.userId })]);
    await expectError(ann.post("/messages", { type: "direct", to: JSON.stringify([424242]), content: "x" }), 400, "BAD_REQUEST", "Invalid user ID 424242");
    await expectError(
      ann.post("/messages", { type: "direct", to: "nobody@example.com", content: "x" }),
      400,
      "BAD_REQUEST",
      "Invalid email 'nobody@example.com'",
    );
    await expectError(bob.get(`/messages/${group.id}`), 400, "BAD_REQUEST", "Invalid message(s)");
  });
});

describe("POST /messages/render and hostile Markdown", () => {
  const hostile: [string, RegExp][] = [
    ["<script>alert(1)</script>", /^<p>&lt;script&gt;alert\(1\)&lt;\/script&gt;<\/p>$/],
    ["[click](javascript:alert(1))", /^<p>\[click\]\(javascript:alert\(1\)\)<\/p>$/],
    ['<img src=x onerror="alert(1)">', /^<p>&lt;img src=x onerror="alert\(1\)"&gt;<\/p>$/],
    ['[x](https://e.com/" onmouseover="alert(1))', /^(?![\s\S]*<[^>]*\sonmouseover=)/],
  ];
  for (const [input, expected] of hostile)
    test(`inert: ${input}`, async () => {
      const { rendered } = await ok(ann.post("/messages/render", { content: input }));
      expect(rendered).toMatch(expected);
      expect(rendered).not.toMatch(/<script|<img|href="javascript:/);
      const { id } = await ok(ann.post("/messages", { type: "stream", to: general, topic: "hostile", content: input }));
      expect((await ok(bob.get(`/messages/${id}`))).message.content).toBe(rendered);
    });

  test("mentions, emoji, code, /me", async () => {
    const r = await ok(ann.post("/messages/render", { content: "**bold** :smile: `code`" }));
    expect(r.rendered).toContain("<strong>bold</strong>");
    expect(r.rendered).toContain("emoji-1f642"); // Zulip's :smile:
    const { id } = await ok(ann.post("/messages", { type: "stream", to: general, topic: "me", content: "/me waves" }));
    expect((await ok(bob.get(`/messages/${id}`))).message.is_me_message).toBe(true);
    await expectError(ann.post("/messages/render", { content: " " }), 400, "BAD_REQUEST", "Message must not be empty");
  });
});
