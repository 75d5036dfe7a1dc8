// Reactions (Unicode by name or code, Zulip's extra emoji, errors, events) and read receipts.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Client } from "../helpers/client";
import { drain } from "../helpers/events";
import { expectError, ok } from "../helpers/client";
import { startServer, type TestServer } from "../helpers/server";

let s: TestServer;
let ann: Client, bob: Client, cat: Client;
let msg: number;

beforeAll(async () => {
  s = await startServer();
  ann = await s.newUser({ name: "Ann React" });
  bob = await s.newUser({ name: "Bob React" });
  cat = await s.newUser({ name: "Cat React" });
  const c = (await ok(ann.post("/channels/create", { name: "fun", subscribers: [ann.userId, bob.userId] }))).id;
  msg = (await ok(ann.post("/messages", { type: "stream", to: c, topic: "jokes", content: "knock knock" }))).id;
});
afterAll(() => s.stop());

describe("reactions", () => {
  test("add by name: event to recipients, shown on the message; duplicates refused", async () => {
    const q = await ok(ann.post("/register", { event_types: ["reaction"] }));
    await ok(bob.post(`/messages/${msg}/reactions`, { emoji_name: "smile" }));
    expect(await drain(ann, q.queue_id)).toEqual([
      expect.objectContaining({
        type: "reaction",
        op: "add",
        message_id: msg,
        emoji_name: "smile",
        emoji_code: "1f642",
        reaction_type: "unicode_emoji",
        user_id: bob.userId,
        user: { user_id: bob.userId, email: bob.email, full_name: "Bob React", is_mirror_dummy: false },
      }),
    ]);
    expect((await ok(ann.get(`/messages/${msg}`))).message.reactions).toEqual([
      { emoji_name: "smile", emoji_code: "1f642", reaction_type: "unicode_emoji", user_id: bob.userId },
    ]);
    await expectError(bob.post(`/messages/${msg}/reactions`, { emoji_name: "smile" }), 400, "REACTION_ALREADY_EXISTS", "Reaction already exists.");
  });

  test("by code, Zulip's extra emoji, and the errors", async () => {
    await ok(bob.post(`/messages/${msg}/reactions`, { emoji_name: "+1", emoji_code: "1f44d", reaction_type: "unicode_emoji" }));
    await ok(bob.post(`/messages/${msg}/reactions`, { emoji_name: "zulip", reaction_type: "zulip_extra_emoji" }));
    await expectError(bob.post(`/messages/${msg}/reactions`, { emoji_name: "no_such_emoji" }), 400, "BAD_REQUEST", "Emoji 'no_such_emoji' does not exist");
    await expectError(bob.post(`/messages/${msg}/reactions`, { emoji_name: "smile", emoji_code: "zzzz" }), 400, "BAD_REQUEST", "Invalid emoji code");
    // Name and code are checked together, as Zulip does: an alias of the emoji is fine, another emoji's name is not.
    await expectError(bob.post(`/messages/${msg}/reactions`, { emoji_name: "thumbs_up", emoji_code: "1f44e" }), 400, "BAD_REQUEST", "Invalid emoji name.");
    await ok(bob.post(`/messages/${msg}/reactions`, { emoji_name: "thumbs_down", emoji_code: "1f44e" }));
    await expectError(bob.post(`/messages/${msg}/reactions`, { emoji_name: "<b>", emoji_code: "1f44d" }), 400, "BAD_REQUEST", "Invalid emoji name.");
    await expectError(bob.post("/messages/999999/reactions", { emoji_name: "smile" }), 400, "BAD_REQUEST", "Invalid message(s)");
    // has:reaction finds it.
    const r = await ok(bob.get("/messages", { anchor: "newest", num_before: 5, num_after: 0, narrow: JSON.stringify([["has", "reaction"]]) }));
    expect(r.messages.map((m: any) => m.id)).toEqual([msg]);
  });

  test("remove by name or code; missing reactions", async () => {
    const q = await ok(ann.post("/register", { event_types: ["reaction"] }));
    await ok(bob.delete(`/messages/${msg}/reactions`, { emoji_name: "smile" }));
    await ok(bob.delete(`/messages/${msg}/reactions`, { emoji_code: "1f44d", reaction_type: "unicode_emoji" }));
    expect((await drain(ann, q.queue_id)).map((e) => [e.op, e.emoji_name])).toEqual([
      ["remove", "smile"],
      ["remove", "+1"],
    ]);
    await expectError(bob.delete(`/messages/${msg}/reactions`, { emoji_name: "smile" }), 400, "REACTION_DOES_NOT_EXIST", "Reaction doesn't exist.");
    await expectError(
      bob.delete(`/messages/${msg}/reactions`, {}),
      400,
      "BAD_REQUEST",
      "At least one of the following arguments must be present: emoji_name, emoji_code",
    );
  });

  test("a reader of public history may react; it gives them a historical row", async () => {
    await ok(cat.post(`/messages/${msg}/reactions`, { emoji_name: "tada" }));
    expect((await ok(cat.get(`/messages/${msg}`))).message.flags).toEqual(["read", "historical"]);
  });
});

describe("read receipts", () => {
  test("disabled by default; then readers but the sender", async () => {
    await expectError(ann.get(`/messages/${msg}/read_receipts`), 400, "BAD_REQUEST", "Read receipts are disabled in this organization.");
    await ok(s.owner.patch("/realm", { enable_read_receipts: true }));
    expect((await ok(ann.get(`/messages/${msg}/read_receipts`))).user_ids).toEqual([cat.userId]);
    await ok(bob.post("/messages/flags", { messages: JSON.stringify([msg]), op: "add", flag: "read" }));
    expect((await ok(ann.get(`/messages/${msg}/read_receipts`))).user_ids).toEqual([bob.userId, cat.userId].sort((a, b) => a! - b!));
    await ok(bob.patch("/settings", { send_read_receipts: false }));
    expect((await ok(ann.get(`/messages/${msg}/read_receipts`))).user_ids).toEqual([cat.userId]);
  });
});
