// zulip-terminal, the official terminal client, against confab: what zulipterminal/model.py sends (through
// python-zulip-api's Client, which form-encodes lists and dicts as JSON) and the fields it reads, by name,
// from register, messages and events (types in zulipterminal/api_types.py).
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { FEATURE_LEVEL } from "../../src/version";
import { expectError, ok, type Client } from "../helpers/client";
import { drain, register } from "../helpers/events";
import type { TestServer } from "../helpers/server";
import { twoMembersInAChannel } from "../helpers/cast";

let s: TestServer;
let ann: Client;
let bob: Client;
let channelId: number;

beforeAll(async () => void ({ s, ann, bob, channelId } = await twoMembersInAChannel(["Ann Terminal", "Bob Terminal"], { name: "terminal" })));
afterAll(() => s.stop());

/** model.py Model.__init__ / _register_desired_events: the event types and data it asks for. */
const EVENT_TYPES = [
  "message",
  "update_message",
  "reaction",
  "submessage",
  "subscription",
  "typing",
  "update_message_flags",
  "user_settings",
  "realm_emoji",
  "realm_user",
];
const FETCH_TYPES = [
  "realm",
  "presence",
  "subscription",
  "message",
  "starred_messages",
  "update_message_flags",
  "muted_topics",
  "realm_user",
  "realm_user_groups",
  "user_settings",
  "realm_emoji",
  "custom_profile_fields",
  "zulip_version",
];
const TERMINAL_REGISTER = { event_types: EVENT_TYPES, fetch_event_types: FETCH_TYPES, client_gravatar: true, apply_markdown: true, include_subscribers: true };

const typeOf = (v: unknown) => (v === null ? "null" : Array.isArray(v) ? "array" : typeof v);
/** Each key model.py reads with [] (a KeyError would stop the client), with its JSON type. */
const expectKeys = (obj: Record<string, unknown>, keys: Record<string, string>) =>
  expect(Object.fromEntries(Object.keys(keys).map((k) => [k, typeOf(obj[k])]))).toEqual(keys);

describe("zulip-terminal start-up (zulipterminal/model.py)", () => {
  test("register with its event and fetch types: every key the client reads", async () => {
    const r = await register(ann, TERMINAL_REGISTER);
    // version.py: servers from Zulip 2.1 (feature level 0) on are supported; the feature level decides the rest.
    expect(r.zulip_feature_level).toBe(FEATURE_LEVEL);
    expectKeys(r, {
      zulip_version: "string",
      max_message_id: "number",
      queue_id: "string",
      last_event_id: "number",
      subscriptions: "array",
      muted_topics: "array",
      realm_user_groups: "array",
      realm_emoji: "object",
      user_settings: "object",
      realm_message_retention_days: "number",
      presences: "object",
      realm_users: "array",
      cross_realm_bots: "array",
      custom_profile_fields: "array",
      user_id: "number",
      email: "string",
      full_name: "string",
      realm_name: "string",
    });
    // _subscribe_to_streams: each subscription's keys.
    const sub = r.subscriptions.find((x: any) => x.stream_id === channelId);
    expectKeys(sub, {
      stream_id: "number",
      name: "string",
      color: "string",
      pin_to_top: "boolean",
      is_muted: "boolean",
      description: "string",
      invite_only: "boolean",
      subscribers: "array",
      date_created: "number",
    });
    expect("desktop_notifications" in sub && "message_retention_days" in sub).toBe(true);
    // The notification bot is a cross-realm bot (model.py reads cross_realm_bots beside realm_users).
    await ok(s.owner.post("/users/me/subscriptions", { subscriptions: [{ name: "new one" }], announce: true }));
    const again = await register(ann, TERMINAL_REGISTER);
    expect(again.cross_realm_bots.map((b: any) => b.email)).toContain("notification-bot@confab.localhost");
    expect(again.realm_users.map((u: any) => u.email)).not.toContain("notification-bot@confab.localhost");
  });
});

describe("zulip-terminal sending and editing (model.py send_stream_message, update_stream_message)", () => {
  test("the topic sent as `subject` is the message's topic, in responses and events", async () => {
    const q = await register(bob, TERMINAL_REGISTER);
    const { id } = await ok(ann.post("/messages", { type: "stream", to: "terminal", subject: "from the terminal", content: "hi", read_by_sender: true }));
    const m = (await ok(bob.get(`/messages/${id}`))).message;
    expect(m.subject).toBe("from the terminal");
    const ev = (await drain(bob, q)).find((e: any) => e.type === "message");
    expect(ev.message).toMatchObject({ id, subject: "from the terminal", stream_id: channelId, display_recipient: "terminal" });
    // get_messages with its parameters (anchor 0 with use_first_unread_anchor, narrow as JSON text).
    const narrow = JSON.stringify([
      ["stream", "terminal"],
      ["topic", "from the terminal"],
    ]);
    const got = await ok(
      bob.get("/messages", { anchor: 0, num_before: 10, num_after: 10, apply_markdown: true, use_first_unread_anchor: true, client_gravatar: true, narrow }),
    );
    expect(got.messages.map((x: any) => x.id)).toContain(id);
    for (const x of got.messages)
      expectKeys(x, {
        id: "number",
        subject: "string",
        stream_id: "number",
        display_recipient: "string",
        sender_id: "number",
        sender_full_name: "string",
        timestamp: "number",
        content: "string",
        reactions: "array",
        flags: "array",
        type: "string",
      });
    // update_stream_message sends `topic`; Zulip also takes `subject` on PATCH.
    await ok(
      ann.patch(`/messages/${id}`, {
        topic: "renamed",
        propagate_mode: "change_one",
        send_notification_to_old_thread: false,
        send_notification_to_new_thread: false,
      }),
    );
    const moved = (await drain(bob, q)).find((e: any) => e.type === "update_message");
    expect(moved).toMatchObject({ subject: "renamed", stream_id: channelId });
    await ok(ann.patch(`/messages/${id}`, { subject: "renamed again", propagate_mode: "change_one" }));
    expect((await ok(bob.get(`/messages/${id}`))).message.subject).toBe("renamed again");
    // send_private_message: type "private", to as a JSON list of ids; a topic sent with it is ignored, as in Zulip.
    const dm = await ok(ann.post("/messages", { type: "private", to: [bob.userId], content: "psst", read_by_sender: true }));
    const dm2 = await ok(ann.post("/messages", { type: "private", to: [bob.userId], topic: "ignored", content: "psst again" }));
    expect((await ok(bob.get(`/messages/${dm2.id}`))).message.subject).toBe("");
    expect(dm.id).toBeLessThan(dm2.id);
  });

  test("a channel message with neither topic nor subject: Zulip's answer for the topics policy, never the empty topic", async () => {
    await expectError(ann.post("/messages", { type: "stream", to: "terminal", content: "no topic" }), 400, "BAD_REQUEST", "Missing topic");
    await ok(s.owner.patch("/realm", { topics_policy: "disable_empty_topic" }));
    await expectError(
      ann.post("/messages", { type: "stream", to: "terminal", content: "no topic" }),
      400,
      "BAD_REQUEST",
      "Sending messages to the general chat is not allowed in this channel.",
    );
    await ok(s.owner.patch("/realm", { topics_policy: "allow_empty_topic" }));
    // Where only the general chat is allowed, that is where it goes.
    const only = (await ok(s.owner.post("/channels/create", { name: "general only", subscribers: [ann.userId], topics_policy: "empty_topic_only" }))).id;
    const { id } = await ok(ann.post("/messages", { type: "stream", to: only, content: "no topic needed" }));
    expect((await ok(ann.get(`/messages/${id}`, { allow_empty_topic_name: true }))).message.subject).toBe("");
  });
});

describe("zulip-terminal's other calls (model.py)", () => {
  test("typing, flags, reactions, subscription settings, presence: each answers successfully", async () => {
    const { id } = await ok(ann.post("/messages", { type: "stream", to: "terminal", subject: "calls", content: "x" }));
    await ok(bob.post("/typing", { to: [ann.userId], op: "start" })); // DirectTypingNotification: no type
    await ok(bob.post("/messages/flags", { messages: [id], flag: "starred", op: "add" }));
    await ok(bob.post("/messages/flags", { messages: [id], flag: "read", op: "add" }));
    await ok(bob.post(`/messages/${id}/reactions`, { emoji_name: "thumbs_up", emoji_code: "1f44d", reaction_type: "unicode_emoji" }));
    await ok(bob.delete(`/messages/${id}/reactions`, { emoji_name: "thumbs_up", emoji_code: "1f44d", reaction_type: "unicode_emoji" }));
    for (const property of ["is_muted", "pin_to_top", "desktop_notifications"])
      await ok(bob.post("/users/me/subscriptions/properties", { subscription_data: [{ stream_id: channelId, property, value: true }] }));
    const p = await ok(bob.post("/users/me/presence", { status: "active", new_user_input: true }));
    expect(typeof p.presences).toBe("object");
    await ok(bob.get(`/users/me/${channelId}/topics`));
    await ok(bob.get(`/messages/${id}/history`));
    expect((await ok(bob.get(`/messages/${id}`, { apply_markdown: false }))).message.content).toBe("x"); // get_raw_message
  });
});
