// Per-user flags and unread state: POST /messages/flags (and /narrow), the mark-as-read shortcuts,
// update_message_flags events, and register's unread_msgs, starred_messages, recent_private_conversations.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Client } from "../helpers/client";
import { drain } from "../helpers/events";
import { expectError, ok } from "../helpers/client";
import { startServer, type TestServer } from "../helpers/server";

let s: TestServer;
let ann: Client, bob: Client, cat: Client;
let room: number;
const ids: number[] = [];

const unread = async (c: Client) => (await ok(c.post("/register", { fetch_event_types: ["update_message_flags"] }))).unread_msgs;

beforeAll(async () => {
  s = await startServer();
  ann = await s.newUser({ name: "Ann Flags" });
  bob = await s.newUser({ name: "Bob Flags" });
  cat = await s.newUser({ name: "Cat Flags" });
  room = (await ok(ann.post("/channels/create", { name: "room", subscribers: [ann.userId, bob.userId] }))).id;
  // The notification bot's creation note is unread for its subscribers; mark it so the counts below are Bob's messages.
  await ok(bob.post("/mark_all_as_read"));
  await ok(ann.post("/mark_all_as_read"));
  for (const [topic, content] of [
    ["a", "one"],
    ["a", "two @**Bob Flags**"],
    ["b", "three"],
  ])
    ids.push((await ok(ann.post("/messages", { type: "stream", to: room, topic, content }))).id);
  ids.push((await ok(ann.post("/messages", { type: "direct", to: JSON.stringify([bob.userId]), content: "dm" }))).id);
  ids.push((await ok(ann.post("/messages", { type: "direct", to: JSON.stringify([bob.userId, cat.userId]), content: "group" }))).id);
});
afterAll(() => s.stop());

describe("unread state", () => {
  test("register's unread_msgs groups by channel topic, one-to-one and group conversations; mentions", async () => {
    const u = await unread(bob);
    expect(u.count).toBe(5);
    expect(u.streams).toEqual([
      { stream_id: room, topic: "a", unread_message_ids: [ids[0], ids[1]] },
      { stream_id: room, topic: "b", unread_message_ids: [ids[2]] },
    ]);
    expect(u.pms).toEqual([{ other_user_id: ann.userId, sender_id: ann.userId, unread_message_ids: [ids[3]] }]);
    expect(u.huddles).toEqual([{ user_ids_string: [ann.userId, bob.userId, cat.userId].sort((a, b) => a! - b!).join(","), unread_message_ids: [ids[4]] }]);
    expect(u.mentions).toEqual([ids[1]]);
    expect(u.old_unreads_missing).toBe(false);
    expect((await unread(ann)).count).toBe(0);
  });

  test("a muted topic does not count; recent conversations; max_message_id", async () => {
    await ok(bob.post("/user_topics", { stream_id: room, topic: "b", visibility_policy: 1 }));
    expect((await unread(bob)).count).toBe(4);
    await ok(bob.post("/user_topics", { stream_id: room, topic: "b", visibility_policy: 0 }));
    const r = await ok(bob.post("/register", { fetch_event_types: ["recent_private_conversations", "message"] }));
    expect(r.recent_private_conversations).toEqual([
      { max_message_id: ids[4], user_ids: [ann.userId, cat.userId].sort((a, b) => a! - b!) },
      { max_message_id: ids[3], user_ids: [ann.userId] },
    ]);
    expect(r.max_message_id).toBe(ids[4]);
  });
});

describe("POST /messages/flags", () => {
  test("read: events, idempotence, message_details on removal", async () => {
    const q = await ok(bob.post("/register", { event_types: ["update_message_flags"] }));
    const r = await ok(bob.post("/messages/flags", { messages: JSON.stringify([ids[0], ids[3]]), op: "add", flag: "read" }));
    expect(r.messages).toEqual([ids[0], ids[3]]);
    expect((await ok(bob.post("/messages/flags", { messages: JSON.stringify([ids[0]]), op: "add", flag: "read" }))).messages).toEqual([]);
    await ok(bob.post("/messages/flags", { messages: JSON.stringify([ids[3]]), op: "remove", flag: "read" }));
    const evs = await drain(bob, q.queue_id);
    expect(evs[0]).toMatchObject({ type: "update_message_flags", op: "add", operation: "add", flag: "read", messages: [ids[0], ids[3]], all: false });
    expect(evs[1]).toMatchObject({ op: "remove", messages: [ids[3]], message_details: { [String(ids[3])]: { type: "private", user_ids: [ann.userId] } } });
    expect((await unread(bob)).count).toBe(4);
  });

  test("starred: register's starred_messages; historical rows for unreceived public messages", async () => {
    await ok(bob.post("/messages/flags", { messages: JSON.stringify([ids[2]]), op: "add", flag: "starred" }));
    expect((await ok(bob.post("/register", { fetch_event_types: ["starred_messages"] }))).starred_messages).toEqual([ids[2]]);
    // Cat never received the channel messages but may read public history: starring creates a historical row.
    await ok(cat.post("/messages/flags", { messages: JSON.stringify([ids[0]]), op: "add", flag: "starred" }));
    const m = (await ok(cat.get(`/messages/${ids[0]}`))).message;
    expect(m.flags).toEqual(["read", "starred", "historical"]);
    await expectError(
      cat.post("/messages/flags", { messages: JSON.stringify([ids[3]]), op: "add", flag: "starred" }),
      400,
      "BAD_REQUEST",
      "Invalid message(s)",
    );
  });

  test("bad flags and ops", async () => {
    await expectError(bob.post("/messages/flags", { messages: "[1]", op: "add", flag: "shiny" }), 400, "BAD_REQUEST", "Invalid flag: 'shiny'");
    await expectError(bob.post("/messages/flags", { messages: "[1]", op: "add", flag: "mentioned" }), 400, "BAD_REQUEST", "Flag not editable: 'mentioned'");
    await expectError(bob.post("/messages/flags", { messages: "[1]", op: "toggle", flag: "read" }), 400, "BAD_REQUEST", "Invalid op");
  });

  test("marking unread in a channel one left is ignored", async () => {
    await ok(bob.delete("/users/me/subscriptions", { subscriptions: JSON.stringify(["room"]) }));
    const r = await ok(bob.post("/messages/flags", { messages: JSON.stringify([ids[0]]), op: "remove", flag: "read" }));
    expect(r).toMatchObject({ messages: [], ignored_because_not_subscribed_channels: [room] });
    await ok(bob.post("/users/me/subscriptions", { subscriptions: JSON.stringify([{ name: "room" }]) }));
  });
});

describe("narrow and shortcuts", () => {
  test("POST /messages/flags/narrow", async () => {
    const r = await ok(
      bob.post("/messages/flags/narrow", {
        anchor: "oldest",
        num_before: 0,
        num_after: 10,
        narrow: JSON.stringify([
          ["channel", "room"],
          ["topic", "a"],
        ]),
        op: "add",
        flag: "read",
      }),
    );
    expect(r).toMatchObject({
      processed_count: 2,
      updated_count: 1,
      first_processed_id: ids[0],
      last_processed_id: ids[1],
      found_oldest: true,
      found_newest: true,
    });
  });

  test("mark_topic_as_read, mark_stream_as_read, mark_all_as_read", async () => {
    await ok(bob.post("/messages/flags", { messages: JSON.stringify(ids), op: "remove", flag: "read" }));
    await ok(bob.post("/mark_topic_as_read", { stream_id: room, topic_name: "A" }));
    expect((await unread(bob)).streams).toEqual([{ stream_id: room, topic: "b", unread_message_ids: [ids[2]] }]);
    await ok(bob.post("/mark_stream_as_read", { stream_id: room }));
    expect((await unread(bob)).streams).toEqual([]);
    await expectError(bob.post("/mark_stream_as_read", { stream_id: 9999 }), 400, "BAD_REQUEST", "Invalid channel ID");
    expect((await ok(bob.post("/mark_all_as_read"))).complete).toBe(true);
    expect((await unread(bob)).count).toBe(0);
  });
});
