// zulip-flutter, the official mobile app, against confab: its start-up path, the endpoints it calls with
// the parameters it sends, and every field its JSON models require, read from the app's own source
// (lib/api/route/*.dart for requests; lib/api/model/*.g.dart and lib/api/route/*.g.dart, extracted into
// test/fixtures/clients/zulip-flutter-models.json by scripts/client-models.ts, for responses and events).
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { encodePng } from "../../src/lib/png";
import { FEATURE_LEVEL } from "../../src/version";
import { ok, type Client } from "../helpers/client";
import { drain } from "../helpers/events";
import { loadClientModels, modelProblems } from "../helpers/client-models";
import type { TestServer } from "../helpers/server";
import { twoMembersInAChannel } from "../helpers/cast";

const models = loadClientModels("zulip-flutter-models");
let s: TestServer;
let ann: Client;
let bob: Client;
let channelId: number;

beforeAll(async () => {
  ({ s, ann, bob, channelId } = await twoMembersInAChannel(["Ann Mobile", "Bob Mobile"], { name: "mobile" }));
  // A message from the notification bot, so a system bot is among the senders the app must know.
  await ok(s.owner.post("/users/me/subscriptions", { subscriptions: [{ name: "announced" }], announce: true }));
});
afterAll(() => s.stop());

/** lib/api/route/events.dart registerQueue: the parameters the app sends (JSON-encoded unless raw). */
const APP_REGISTER = {
  idle_queue_timeout: '"mobile"',
  apply_markdown: true,
  client_gravatar: false,
  slim_presence: true,
  client_capabilities: {
    notification_settings_null: true,
    bulk_message_deletion: true,
    user_avatar_url_field_optional: true,
    stream_typing_notifications: true,
    user_settings_object: true,
    include_deactivated_groups: true,
    empty_topic_name: true,
    individual_emoji_changes: true,
  },
};

const expectModel = (model: string, value: unknown) => expect(modelProblems(models, model, value)).toEqual([]);

/** lib/api/model/model.dart Message.fromJson: StreamMessage or DmMessage by type, with the conversation they read. */
function expectMessage(m: any) {
  if (m.type === "stream") {
    expectModel("StreamMessage", m);
    expect(typeof m.stream_id).toBe("number");
    expect(typeof m.subject).toBe("string");
  } else {
    expectModel("DmMessage", m);
    expect(m.display_recipient.every((r: any) => typeof r.id === "number" && typeof r.email === "string" && typeof r.full_name === "string")).toBe(true);
  }
}

describe("zulip-flutter start-up (lib/model/store.dart, lib/api/route/realm.dart, lib/api/route/events.dart)", () => {
  test("GET /server_settings: GetServerSettingsResult, and the feature level the app requires (lib/api/core.dart: 371)", async () => {
    const r = await ok(s.anon.get("/server_settings"));
    expectModel("GetServerSettingsResult", r);
    expect(r.zulip_feature_level).toBeGreaterThanOrEqual(371);
    expect(r.zulip_feature_level).toBe(FEATURE_LEVEL);
    // The app shows the realm icon, and cannot show SVG.
    const icon = await fetch(r.realm_icon);
    expect(icon.headers.get("content-type")).toBe("image/png");
  });

  test('POST /register with the app\'s parameters (idle_queue_timeout "mobile"): InitialSnapshot, every nested model', async () => {
    await ok(ann.post("/register_client_device"));
    const snap = await ok(ann.post("/register", APP_REGISTER));
    expectModel("InitialSnapshot", snap);
    expect(snap.idle_queue_timeout_secs).toBeGreaterThan(600);
    expect(typeof snap.realm_wildcard_mention_policy).toBe("number");
    // Read through readValue helpers (InitialSnapshot._readUsersIsActiveFallback*): lists of User.
    for (const key of ["realm_users", "realm_non_active_users", "cross_realm_bots"]) snap[key].forEach((u: unknown) => expectModel("User", u));
    // The system bots are cross-realm bots, not the realm's users (zulip-terminal and the app both merge them in).
    expect(snap.cross_realm_bots.map((b: any) => b.full_name)).toContain("Notification Bot");
    expect(snap.realm_users.some((u: any) => u.full_name === "Notification Bot")).toBe(false);
    expect(Object.keys(snap.devices).length).toBe(1);
    // server_emoji_data_url: the ServerEmojiData document, with caching headers.
    const emoji = await fetch(snap.server_emoji_data_url);
    expect(emoji.headers.get("cache-control")).toContain("max-age");
    const data = (await emoji.json()) as { code_to_names: Record<string, string[]> };
    expectModel("ServerEmojiData", data);
    expect(data.code_to_names["1f642"]).toEqual(["smile"]);
    const again = await fetch(snap.server_emoji_data_url, { headers: { "If-None-Match": emoji.headers.get("etag")! } });
    expect(again.status).toBe(304);
  });

  test("every user's avatar_url loads, and Zulip's /avatar/{user_id} redirects to it", async () => {
    await ok(bob.post("/users/me/avatar", {}, { files: [new File([encodePng(1, 1, new Uint8Array([0, 0, 255, 255]))], "me.png", { type: "image/png" })] }));
    const snap = await ok(ann.post("/register", { ...APP_REGISTER, fetch_event_types: ["realm_user"] }));
    for (const u of [...snap.realm_users, ...snap.cross_realm_bots]) {
      // With user_avatar_url_field_optional the server may leave avatar_url out (long-idle users); the
      // app then asks for /avatar/{user_id} (lib/api/model/model.dart), which redirects to the avatar.
      const url = u.avatar_url ?? `/avatar/${u.user_id}`;
      expect(typeof url).toBe("string");
      const redirect = await fetch(`${s.url}/avatar/${u.user_id}`, { headers: { Authorization: ann.auth! }, redirect: "manual" });
      expect(redirect.status).toBe(302);
      const full = (await ok(ann.get(`/users/${u.user_id}`, { client_gravatar: false }, { unchecked: true }))).user;
      if (full) expect(redirect.headers.get("location")).toBe(full.avatar_url);
      if (u.avatar_url) expect(redirect.headers.get("location")).toBe(u.avatar_url);
    }
    const img = await fetch(`${s.url}/avatar/${bob.userId}`, { headers: { Authorization: ann.auth! } });
    expect(img.headers.get("content-type")).toBe("image/png");
    expect((await fetch(`${s.url}/avatar/${bob.userId}`, { redirect: "manual" })).status).toBe(401);
  });
});

describe("zulip-flutter requests (lib/api/route/*.dart), as the app sends them", () => {
  test("messages, flags, reactions, typing, presence, uploads, snippets, devices, own user", async () => {
    // messages.dart sendMessage: type "channel" and "direct" (raw), to as JSON, read_by_sender.
    const sent = await ok(ann.post("/messages", { type: "channel", to: channelId, topic: "from the app", content: "hello", read_by_sender: true }));
    expectModel("SendMessageResult", sent);
    await ok(ann.post("/messages", { type: "direct", to: [bob.userId], content: "psst", read_by_sender: true }));
    // getMessages: anchor raw, narrow JSON, allow_empty_topic_name.
    const got = await ok(
      bob.get("/messages", {
        anchor: "newest",
        include_anchor: true,
        num_before: 50,
        num_after: 0,
        narrow: [],
        client_gravatar: false,
        apply_markdown: true,
        allow_empty_topic_name: true,
      }),
    );
    expectModel("GetMessagesResult", got);
    got.messages.forEach(expectMessage);
    const one = await ok(bob.get(`/messages/${sent.id}`, { apply_markdown: true, allow_empty_topic_name: true }));
    expectModel("GetMessageResult", one);
    expectMessage(one.message);
    const topics = await ok(bob.get(`/users/me/${channelId}/topics`, { allow_empty_topic_name: true }));
    expectModel("GetChannelTopicsResult", topics);
    expectModel("UpdateMessageResult", await ok(ann.patch(`/messages/${sent.id}`, { content: "hello, edited", prev_content_sha256: undefined })));
    expectModel("UpdateMessageFlagsResult", await ok(bob.post("/messages/flags", { messages: [sent.id], op: "add", flag: "read" })));
    expectModel(
      "UpdateMessageFlagsForNarrowResult",
      await ok(
        bob.post("/messages/flags/narrow", { anchor: "oldest", include_anchor: true, num_before: 0, num_after: 1000, narrow: [], op: "add", flag: "read" }),
      ),
    );
    await ok(bob.post(`/messages/${sent.id}/reactions`, { emoji_name: "thumbs_up", emoji_code: "1f44d", reaction_type: "unicode_emoji" }));
    await ok(bob.delete(`/messages/${sent.id}/reactions`, { emoji_name: "thumbs_up", emoji_code: "1f44d", reaction_type: "unicode_emoji" }));
    await ok(bob.post("/typing", { type: "channel", op: "start", stream_id: channelId, topic: "from the app" }));
    expectModel(
      "UpdatePresenceResult",
      await ok(bob.post("/users/me/presence", { status: "active", ping_only: false, new_user_input: true, slim_presence: true, last_update_id: -1 })),
    );
    expectModel("CreateSavedSnippetResult", await ok(bob.post("/saved_snippets", { title: "hi", content: "hello there" })));
    await ok(bob.post("/users/me/status", { status_text: "on the go", emoji_name: "car", emoji_code: "1f697", reaction_type: "unicode_emoji" }));
    await ok(bob.post("/users/me/subscriptions/properties", { subscription_data: [{ stream_id: channelId, property: "is_muted", value: false }] }));
    await ok(bob.post("/user_topics", { stream_id: channelId, topic: "from the app", visibility_policy: 2 }));
    await ok(bob.patch("/settings", { twenty_four_hour_time: true }));
    const me = await ok(bob.get("/users/me"));
    expectModel("GetOwnUserResult", me);
    // uploadFile (multipart) and getFileTemporaryUrl.
    const up = await ok(bob.post("/user_uploads", {}, { files: [new File(["x"], "note.txt")] }));
    expect(typeof up.url).toBe("string");
    const temp = await ok(bob.get(up.url));
    expect((await fetch(new URL(temp.url, s.url))).status).toBe(200);
    // registerClientDevice / removeClientDevice.
    const dev = await ok(bob.post("/register_client_device"));
    expectModel("RegisterClientDeviceResult", dev);
    await ok(bob.post("/remove_client_device", { device_id: dev.device_id }));
    await ok(s.owner.delete(`/messages/${sent.id}`));
  });
});

/** lib/api/model/events.dart Event.fromJson: the class each type/op becomes. */
const EVENT_MODELS: Record<string, string> = {
  "realm_emoji/add": "RealmEmojiAddEvent",
  "realm_emoji/update_one": "RealmEmojiUpdateOneEvent",
  alert_words: "AlertWordsEvent",
  "user_settings/update": "UserSettingsUpdateEvent",
  "device/add": "DeviceAddEvent",
  "device/remove": "DeviceRemoveEvent",
  "realm_user/add": "RealmUserAddEvent",
  "realm_user/update": "RealmUserUpdateEvent",
  "saved_snippets/add": "SavedSnippetsAddEvent",
  "stream/create": "ChannelCreateEvent",
  "stream/update": "ChannelUpdateEvent",
  "subscription/add": "SubscriptionAddEvent",
  "subscription/remove": "SubscriptionRemoveEvent",
  "subscription/update": "SubscriptionUpdateEvent",
  "subscription/peer_add": "SubscriptionPeerAddEvent",
  user_status: "UserStatusEvent",
  user_topic: "UserTopicEvent",
  muted_users: "MutedUsersEvent",
  message: "MessageEvent",
  update_message: "UpdateMessageEvent",
  delete_message: "DeleteMessageEvent",
  "update_message_flags/add": "UpdateMessageFlagsAddEvent",
  "update_message_flags/remove": "UpdateMessageFlagsRemoveEvent",
  typing: "TypingEvent",
  presence: "PresenceEvent",
  reaction: "ReactionEvent",
};

describe("zulip-flutter events (lib/api/model/events.dart)", () => {
  test("each event the app parses has every field its model requires", async () => {
    const q = await ok(ann.post("/register", APP_REGISTER));
    const carl = await s.newUser({ name: "Carl" });
    const { id } = await ok(bob.post("/messages", { type: "channel", to: channelId, topic: "events", content: "for the app" }));
    await ok(bob.post("/messages", { type: "direct", to: [ann.userId], content: "dm" }));
    await ok(bob.patch(`/messages/${id}`, { content: "edited for the app" }));
    await ok(bob.patch(`/messages/${id}`, { topic: "events moved", propagate_mode: "change_all" }));
    await ok(ann.post(`/messages/${id}/reactions`, { emoji_name: "smile" }));
    await ok(ann.post("/messages/flags", { messages: [id], op: "add", flag: "starred" }));
    await ok(ann.post("/messages/flags", { messages: [id], op: "remove", flag: "starred" }));
    await ok(bob.post("/typing", { type: "direct", op: "start", to: [ann.userId] }));
    await ok(s.owner.post("/realm/emoji/app-parrot", {}, { files: [new File([encodePng(1, 1, new Uint8Array(4))], "p.png", { type: "image/png" })] }));
    await ok(s.owner.delete("/realm/emoji/app-parrot"));
    const dev = await ok(ann.post("/register_client_device"));
    await ok(ann.post("/remove_client_device", { device_id: dev.device_id }));
    await ok(ann.post("/users/me/alert_words", { alert_words: ["deploy"] }));
    await ok(ann.post("/saved_snippets", { title: "t", content: "c" }));
    await ok(ann.patch("/settings", { twenty_four_hour_time: true }));
    await ok(ann.post("/users/me/status", { status_text: "busy" }));
    await ok(ann.post("/user_topics", { stream_id: channelId, topic: "events moved", visibility_policy: 1 }));
    await ok(ann.post("/users/me/muted_users/" + carl.userId));
    await ok(ann.post("/channels/create", { name: "app new", subscribers: [ann.userId, bob.userId] }));
    await ok(ann.post("/users/me/subscriptions/properties", { subscription_data: [{ stream_id: channelId, property: "pin_to_top", value: true }] }));
    await ok(bob.patch("/settings", { full_name: "Bob Renamed" }));
    await ok(carl.post("/users/me/presence", { status: "active", slim_presence: true }));
    await ok(carl.post("/users/me/subscriptions", { subscriptions: [{ name: "mobile" }] }));
    await ok(s.owner.delete(`/messages/${id}`));
    await ok(ann.delete("/users/me/subscriptions", { subscriptions: ["app new"] }));
    const events = await drain(ann, q);
    const seen = new Set<string>();
    for (const e of events) {
      const name = EVENT_MODELS[`${e.type}/${e.op}`] ?? EVENT_MODELS[e.type];
      if (!name) continue;
      seen.add(name);
      expect(modelProblems(models, name, e, `${name} (${e.type}${e.op ? "/" + e.op : ""})`)).toEqual([]);
      // MessageEvent hands the event's flags to the message (lib/api/model/events.dart).
      if (e.type === "message") expectMessage({ ...e.message, flags: e.flags });
    }
    expect([...seen].sort()).toEqual(
      [
        "AlertWordsEvent",
        "ChannelCreateEvent",
        "DeleteMessageEvent",
        "DeviceAddEvent",
        "DeviceRemoveEvent",
        "MessageEvent",
        "MutedUsersEvent",
        "ReactionEvent",
        "RealmEmojiAddEvent",
        "RealmEmojiUpdateOneEvent",
        "RealmUserAddEvent",
        "RealmUserUpdateEvent",
        "SavedSnippetsAddEvent",
        "SubscriptionAddEvent",
        "SubscriptionRemoveEvent",
        "SubscriptionUpdateEvent",
        "TypingEvent",
        "UpdateMessageEvent",
        "UpdateMessageFlagsAddEvent",
        "UpdateMessageFlagsRemoveEvent",
        "UserSettingsUpdateEvent",
        "UserStatusEvent",
        "UserTopicEvent",
        "PresenceEvent",
        "SubscriptionPeerAddEvent",
      ].sort(),
    );
  });
});
