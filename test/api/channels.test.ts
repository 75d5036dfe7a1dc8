import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Client } from "../helpers/client";
import { drain } from "../helpers/events";
import { expectError, ok } from "../helpers/client";
import { startServer, type TestServer } from "../helpers/server";

let s: TestServer;
let ann: Client;
let bob: Client;
let guest: Client;
beforeAll(async () => {
  s = await startServer();
  ann = await s.newUser({ name: "Ann Channel" });
  bob = await s.newUser({ name: "Bob Channel" });
  guest = await s.newUser({ name: "Gus Guest", role: 600 });
});
afterAll(() => s.stop());

describe("POST /channels/create", () => {
  test("creates a public channel, subscribes, answers its id; stream and subscription events", async () => {
    const q = await ok(
      bob.post("/register", { event_types: ["stream", "subscription", "message"], client_capabilities: { notification_settings_null: true } }),
    );
    const qa = await ok(ann.post("/register", { event_types: ["stream", "subscription"] }));
    const r = await ok(ann.post("/channels/create", { name: "design", description: "All about *design*", subscribers: [ann.userId, bob.userId] }));
    expect(typeof r.id).toBe("number");
    const evs = await drain(bob, q.queue_id);
    expect(evs.find((e) => e.type === "stream" && e.op === "create").streams[0]).toMatchObject({ stream_id: r.id, name: "design", invite_only: false });
    const add = evs.find((e) => e.type === "subscription" && e.op === "add");
    expect(add.subscriptions[0]).toMatchObject({ stream_id: r.id, name: "design", is_muted: false, in_home_view: true, desktop_notifications: null });
    expect(add.subscriptions[0].subscribers.sort()).toEqual([ann.userId, bob.userId].sort());
    expect(add.subscriptions[0].rendered_description).toBe("<p>All about <em>design</em></p>");
    // The notification bot notes the creation in the channel's "channel events" topic.
    expect(evs.find((e) => e.type === "message").message).toMatchObject({ subject: "channel events", display_recipient: "design" });
    // Those subscribed together learn of each other from their own subscription; others get peer_add.
    expect((await drain(ann, qa.queue_id)).some((e) => e.op === "peer_add")).toBe(false);
    const qo = await ok(s.owner.post("/register", { event_types: ["subscription"] }));
    const carl = await s.newUser();
    await ok(carl.post("/users/me/subscriptions", { subscriptions: [{ name: "design" }] }));
    expect(await drain(s.owner, qo.queue_id)).toEqual([expect.objectContaining({ op: "peer_add", stream_ids: [r.id], user_ids: [carl.userId] })]);
  });

  test("a duplicate name, a bad name and a guest are refused", async () => {
    await expectError(ann.post("/channels/create", { name: "Design", subscribers: [] }), 400, "BAD_REQUEST", "Channel 'Design' already exists");
    await expectError(ann.post("/channels/create", { name: "  ", subscribers: [] }), 400, "BAD_REQUEST", "Channel name can't be empty.");
    await expectError(
      ann.post("/channels/create", { name: "x".repeat(61), subscribers: [] }),
      400,
      "BAD_REQUEST",
      "Channel name too long (limit: 60 characters).",
    );
    await expectError(guest.post("/channels/create", { name: "guesty", subscribers: [] }), 400, "BAD_REQUEST", "Insufficient permission");
  });

  test("web-public needs spectator access; private with protected history", async () => {
    await expectError(
      s.owner.post("/channels/create", { name: "webby", subscribers: [], is_web_public: true }),
      400,
      "BAD_REQUEST",
      "Web-public channels are not enabled.",
    );
    const r = await ok(ann.post("/channels/create", { name: "secret", subscribers: [ann.userId], invite_only: true, history_public_to_subscribers: false }));
    const st = await ok(ann.get(`/streams/${r.id}`));
    expect(st.stream).toMatchObject({ invite_only: true, history_public_to_subscribers: false, is_web_public: false });
    await expectError(bob.get(`/streams/${r.id}`), 400, "BAD_REQUEST", "Invalid channel ID");
  });
});

describe("channels", () => {
  test("GET /streams, /get_stream_id, members, PATCH and archive", async () => {
    const { id } = await ok(ann.post("/channels/create", { name: "ops", subscribers: [ann.userId] }));
    const list = await ok(bob.get("/streams"));
    expect(list.streams.map((x: any) => x.name)).toContain("ops");
    expect(list.streams.map((x: any) => x.name)).not.toContain("secret");
    expect((await ok(bob.get("/get_stream_id", { stream: "OPS" }))).stream_id).toBe(id);
    await expectError(bob.get("/get_stream_id", { stream: "nope" }), 400, "BAD_REQUEST", "Invalid channel name 'nope'");
    expect((await ok(bob.get(`/streams/${id}/members`))).subscribers).toEqual([ann.userId]);
    // The creator administers the channel; others may not change it.
    await expectError(bob.patch(`/streams/${id}`, { description: "x" }), 400, "BAD_REQUEST", "Insufficient permission");
    const q = await ok(bob.post("/register", { event_types: ["stream"] }));
    await ok(ann.patch(`/streams/${id}`, { description: "Operations", new_name: "operations" }));
    const evs = await drain(bob, q.queue_id);
    expect(evs.map((e) => e.property)).toEqual(["name", "description"]);
    expect(evs[1]).toMatchObject({ value: "Operations", rendered_description: "<p>Operations</p>" });
    await ok(ann.delete(`/streams/${id}`));
    const after = await drain(bob, q.queue_id);
    expect(after.at(-1)).toMatchObject({ type: "stream", op: "delete", stream_ids: [id] });
    const q2 = await ok(bob.post("/register", { fetch_event_types: ["stream"], client_capabilities: { archived_channels: true } }));
    expect(q2.streams.find((x: any) => x.stream_id === id)).toMatchObject({ is_archived: true });
  });
});

describe("subscriptions", () => {
  test("subscribe creates channels on the fly; subscribing others needs permission; unsubscribe", async () => {
    const r = await ok(bob.post("/users/me/subscriptions", { subscriptions: [{ name: "random" }, { name: "design" }] }));
    expect(r.subscribed).toEqual({ [String(bob.userId)]: ["random"] });
    expect(r.already_subscribed).toEqual({ [String(bob.userId)]: ["design"] });
    const g = await ok(bob.post("/users/me/subscriptions", { subscriptions: [{ name: "random" }], principals: [guest.userId] }));
    expect(g.subscribed).toEqual({ [String(guest.userId)]: ["random"] });
    await expectError(
      guest.post("/users/me/subscriptions", { subscriptions: [{ name: "random" }], principals: [ann.userId] }),
      400,
      "BAD_REQUEST",
      "You do not have permission to subscribe other users to channels.",
    );
    await expectError(bob.post("/users/me/subscriptions", { subscriptions: [{ name: "secret" }] }), 400, "BAD_REQUEST", "Unable to access channel (secret).");
    const soft = await ok(bob.post("/users/me/subscriptions", { subscriptions: [{ name: "secret" }], authorization_errors_fatal: false }));
    expect(soft.unauthorized).toEqual(["secret"]);
    const del = await ok(bob.delete("/users/me/subscriptions", { subscriptions: ["random", "design"] }));
    expect(del.removed.sort()).toEqual(["design", "random"]);
    const reg = await ok(bob.post("/register", { fetch_event_types: ["subscription"], include_subscribers: true }));
    expect(reg.unsubscribed.map((x: any) => x.name).sort()).toEqual(["design", "random"]);
    expect(reg.never_subscribed.map((x: any) => x.name)).not.toContain("secret");
  });

  test("properties: null inherits, in_home_view mirrors is_muted, bad values refused", async () => {
    const { id } = await ok(ann.post("/channels/create", { name: "props", subscribers: [ann.userId] }));
    const q = await ok(ann.post("/register", { event_types: ["subscription"] }));
    await ok(
      ann.post("/users/me/subscriptions/properties", {
        subscription_data: [
          { stream_id: id, property: "color", value: "#123456" },
          { stream_id: id, property: "in_home_view", value: false },
          { stream_id: id, property: "desktop_notifications", value: true },
        ],
      }),
    );
    const sub = (await ok(ann.get("/users/me/subscriptions"))).subscriptions.find((x: any) => x.stream_id === id);
    expect(sub).toMatchObject({ color: "#123456", is_muted: true, in_home_view: false, desktop_notifications: true, push_notifications: null });
    const evs = await drain(ann, q.queue_id);
    expect(evs.map((e) => [e.property, e.value])).toEqual([
      ["color", "#123456"],
      ["in_home_view", false],
      ["is_muted", true],
      ["desktop_notifications", true],
    ]);
    await expectError(
      ann.post("/users/me/subscriptions/properties", { subscription_data: [{ stream_id: id, property: "color", value: "red" }] }),
      400,
      "BAD_REQUEST",
      "color is not a valid hex color code",
    );
    await expectError(
      bob.post("/users/me/subscriptions/properties", { subscription_data: [{ stream_id: id, property: "color", value: "#fff" }] }),
      400,
      "BAD_REQUEST",
      `Not subscribed to channel ID ${id}`,
    );
    expect((await ok(bob.get(`/users/${ann.userId}/subscriptions/${id}`))).is_subscribed).toBe(true);
  });

  test("PATCH /users/me/subscriptions takes Zulip's documented color inside the add objects", async () => {
    const r = await ok(bob.patch("/users/me/subscriptions", { add: [{ name: "colorful", color: "#c2c2c2" }], delete: [] }));
    expect(r.subscribed[String(bob.userId)]).toEqual(["colorful"]);
    const sub = (await ok(bob.get("/users/me/subscriptions"))).subscriptions.find((x: any) => x.name === "colorful");
    expect(sub.color).toBe("#c2c2c2");
    await expectError(
      bob.patch("/users/me/subscriptions", { add: [{ name: "colorless", color: "red" }] }),
      400,
      "BAD_REQUEST",
      "color is not a valid hex color code",
    );
  });

  test("register: include_subscribers partial, user_topics", async () => {
    const { id } = await ok(ann.post("/channels/create", { name: "topics-here", subscribers: [ann.userId] }));
    await ok(ann.post("/user_topics", { stream_id: id, topic: "noise", visibility_policy: 1 }));
    const reg = await ok(ann.post("/register", { fetch_event_types: ["subscription", "user_topic", "muted_topics"], include_subscribers: '"partial"' }));
    expect(reg.subscriptions.find((x: any) => x.stream_id === id).subscribers).toEqual([ann.userId]);
    expect(reg.user_topics).toEqual([expect.objectContaining({ stream_id: id, topic_name: "noise", visibility_policy: 1 })]);
    expect(reg.muted_topics).toEqual([["topics-here", "noise", expect.any(Number)]]);
  });
});
