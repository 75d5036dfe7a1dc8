// Endpoints python-zulip-api's Client methods call that Zulip's OpenAPI file leaves out (and its legacy
// forms), each sent as the method sends it (zulip/zulip/__init__.py) and answered as Zulip's server does.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { expectError, ok, type Client } from "../helpers/client";
import { drain } from "../helpers/events";
import { startServer, type TestServer } from "../helpers/server";

let s: TestServer;
let ann: Client;
let bot: Client;

beforeAll(async () => {
  s = await startServer();
  ann = await s.newUser({ name: "Ann" });
  const created = await ok(ann.post("/bots", { full_name: "Helper", short_name: "helper", bot_type: 1 }, { unchecked: true }));
  bot = s.client(created.email ?? `helper-bot@${new URL(s.url).hostname}`, created.api_key, created.user_id);
  await ok(s.owner.post("/channels/create", { name: "quiet", subscribers: [ann.userId] }));
});
afterAll(() => s.stop());

describe("update_storage / get_storage (the bot storage API)", () => {
  test("PUT stores string values; GET returns all or the named keys; DELETE removes", async () => {
    await ok(bot.call("PUT", "/bot_storage", { storage: { "entry 1": "value 1", "entry 2": "value 2", "entry 3": "value 3" } }));
    expect((await ok(bot.get("/bot_storage"))).storage).toEqual({ "entry 1": "value 1", "entry 2": "value 2", "entry 3": "value 3" });
    expect((await ok(bot.get("/bot_storage", { keys: ["entry 1", "entry 3"] }))).storage).toEqual({ "entry 1": "value 1", "entry 3": "value 3" });
    await ok(bot.call("PUT", "/bot_storage", { storage: { "entry 1": "changed" } }));
    await ok(bot.delete("/bot_storage", { keys: ["entry 2"] }));
    expect((await ok(bot.get("/bot_storage"))).storage).toEqual({ "entry 1": "changed", "entry 3": "value 3" });
    expect((await ok(ann.get("/bot_storage"))).storage).toEqual({}); // each user's own
    await expectError(bot.get("/bot_storage", { keys: ["nope"] }), 400, "BAD_REQUEST", "Key does not exist.");
    await expectError(bot.delete("/bot_storage", { keys: ["entry 1", "nope"] }), 400, "BAD_REQUEST", "Key does not exist.");
    await expectError(bot.call("PUT", "/bot_storage", { storage: { k: 1 } }), 400, "BAD_REQUEST", 'storage["k"] is not a string');
    await ok(bot.delete("/bot_storage"));
    expect((await ok(bot.get("/bot_storage"))).storage).toEqual({});
  });
});

describe("update_realm_profile_field / remove_realm_profile_field", () => {
  test("PATCH changes what is sent, DELETE removes the field; custom_profile_fields events", async () => {
    const { id } = await ok(s.owner.post("/realm/profile_fields", { name: "Phone", hint: "work", field_type: 1 }));
    const q = await ok(ann.post("/register", { event_types: ["custom_profile_fields"] }));
    await ok(s.owner.patch(`/realm/profile_fields/${id}`, { hint: "mobile", required: true }));
    const field = (await ok(ann.get("/realm/profile_fields"))).custom_fields.find((f: any) => f.id === id);
    expect(field).toMatchObject({ name: "Phone", hint: "mobile", type: 1, required: true });
    const { id: other } = await ok(s.owner.post("/realm/profile_fields", { name: "Team", field_type: 1 }));
    await expectError(s.owner.patch(`/realm/profile_fields/${id}`, { name: "Team" }), 400, "BAD_REQUEST", "A field with that label already exists.");
    await expectError(ann.patch(`/realm/profile_fields/${id}`, { name: "Mine" }), 400, "UNAUTHORIZED_PRINCIPAL", "Must be an organization administrator");
    await expectError(s.owner.patch("/realm/profile_fields/99999", { name: "x" }), 400, "BAD_REQUEST", "Field id 99999 not found.");
    await ok(s.owner.patch(`/users/${ann.userId}`, { profile_data: [{ id, value: "555-1234" }] }));
    const profile = async () => (await ok(s.owner.get(`/users/${ann.userId}`, { include_custom_profile_fields: true }))).user.profile_data;
    expect((await profile())[id]).toMatchObject({ value: "555-1234" });
    await ok(s.owner.delete(`/realm/profile_fields/${id}`));
    const fields = (await ok(ann.get("/realm/profile_fields"))).custom_fields.map((f: any) => f.id);
    expect(fields).toEqual([other]);
    expect((await profile())[id]).toBeUndefined(); // the values went with the field
    await expectError(s.owner.delete(`/realm/profile_fields/${id}`), 400, "BAD_REQUEST", `Field id ${id} not found.`);
    const events = await drain(ann, q);
    expect(events.map((e) => e.type)).toEqual(["custom_profile_fields", "custom_profile_fields", "custom_profile_fields"]);
    expect(events[2].fields.map((f: any) => f.id)).toEqual([other]);
  });
});

describe("mute_topic (PATCH /users/me/subscriptions/muted_topics)", () => {
  test("the legacy form by channel name or id, mapped to user topics", async () => {
    const q = await ok(ann.post("/register", { event_types: ["user_topic"] }));
    await ok(ann.patch("/users/me/subscriptions/muted_topics", { stream: "quiet", topic: "noise", op: "add" }));
    const state = await ok(ann.post("/register", { fetch_event_types: ["user_topic"] }));
    expect(state.user_topics.find((t: any) => t.topic_name === "noise")).toMatchObject({ visibility_policy: 1 });
    const channelId = state.user_topics.find((t: any) => t.topic_name === "noise").stream_id;
    await ok(ann.patch("/users/me/subscriptions/muted_topics", { stream_id: channelId, topic: "noise", op: "remove" }));
    const events = await drain(ann, q);
    expect(events.map((e) => [e.type, e.topic_name, e.visibility_policy])).toEqual([
      ["user_topic", "noise", 1],
      ["user_topic", "noise", 0],
    ]);
    await expectError(
      ann.patch("/users/me/subscriptions/muted_topics", { topic: "noise", op: "add" }),
      400,
      "BAD_REQUEST",
      "Unsupported parameter combination: stream_id, stream",
    );
    await expectError(
      ann.patch("/users/me/subscriptions/muted_topics", { stream: "quiet", stream_id: channelId, topic: "noise", op: "add" }),
      400,
      "BAD_REQUEST",
      "Unsupported parameter combination: stream_id, stream",
    );
    await expectError(ann.patch("/users/me/subscriptions/muted_topics", { stream: "quiet", topic: "noise", op: "mute" }), 400, "BAD_REQUEST", "Invalid op");
  });
});

describe("update_notification_settings (PATCH /settings/notifications)", () => {
  test("Zulip's alias of PATCH /settings", async () => {
    const q = await ok(ann.post("/register", { event_types: ["user_settings"] }));
    await ok(ann.patch("/settings/notifications", { enable_stream_push_notifications: true, enable_offline_push_notifications: false }));
    await ok(ann.patch("/settings/display", { twenty_four_hour_time: true }));
    const state = (await ok(ann.post("/register", { fetch_event_types: ["user_settings"] }))).user_settings;
    expect(state).toMatchObject({ enable_stream_push_notifications: true, enable_offline_push_notifications: false, twenty_four_hour_time: true });
    expect((await drain(ann, q)).map((e) => e.property)).toEqual([
      "enable_stream_push_notifications",
      "enable_offline_push_notifications",
      "twenty_four_hour_time",
    ]);
  });
});

describe("get_stream_email_address", () => {
  test("an informative address in Zulip's form, for those who may post", async () => {
    const { stream_id } = await ok(ann.get("/get_stream_id", { stream: "quiet" }));
    const { email } = await ok(ann.get(`/streams/${stream_id}/email_address`));
    expect(email).toMatch(/^quiet\.[0-9a-f]{32}\.show-sender@/);
    const { email: asBot } = await ok(ann.get(`/streams/${stream_id}/email_address`, { sender_id: bot.userId }));
    expect(asBot).not.toBe(email);
    expect((await ok(ann.get(`/streams/${stream_id}/email_address`))).email).toBe(email); // stable
    await expectError(ann.get(`/streams/${stream_id}/email_address`, { sender_id: s.owner.userId }), 400, "BAD_REQUEST", "No such bot");
    await expectError(ann.get("/streams/99999/email_address"), 400, "BAD_REQUEST", "Invalid channel ID");
  });
});

describe("update_user_by_id's email form (PATCH /users/{email})", () => {
  test("an administrator changes a user named by email", async () => {
    await ok(s.owner.patch(`/users/${encodeURIComponent(ann.email!)}`, { full_name: "Ann Smith" }));
    expect((await ok(s.owner.get(`/users/${ann.userId}`))).user.full_name).toBe("Ann Smith");
    await expectError(s.owner.patch("/users/nobody@example.com", { full_name: "x" }), 400, "BAD_REQUEST", "No such user");
  });
});
