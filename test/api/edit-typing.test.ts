// POST /messages/{message_id}/typing: typing_edit_message events reach whoever would hear of typing in
// that conversation (channel subscribers but the editor; every direct-message participant).
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { expectError, ok, type Client } from "../helpers/client";
import { drain } from "../helpers/events";
import { startServer, type TestServer } from "../helpers/server";

let s: TestServer;
let ann: Client;
let bob: Client;
let carl: Client;
let channelId: number;

beforeAll(async () => {
  s = await startServer();
  ann = await s.newUser({ name: "Ann" });
  bob = await s.newUser({ name: "Bob" });
  carl = await s.newUser({ name: "Carl" });
  channelId = (await ok(s.owner.post("/channels/create", { name: "edits", subscribers: [ann.userId, bob.userId], invite_only: true }))).id;
});
afterAll(() => s.stop());

describe("edit typing", () => {
  test("channel message: subscribers but the editor hear start and stop", async () => {
    const { id } = await ok(ann.post("/messages", { type: "stream", to: channelId, topic: "draft", content: "v1" }));
    const qb = await ok(bob.post("/register", { event_types: ["typing_edit_message"] }));
    const qa = await ok(ann.post("/register", { event_types: ["typing_edit_message"] }));
    await ok(ann.post(`/messages/${id}/typing`, { op: "start" }));
    await ok(ann.post(`/messages/${id}/typing`, { op: "stop" }));
    expect(await drain(bob, qb)).toEqual([
      {
        id: 0,
        type: "typing_edit_message",
        op: "start",
        sender_id: ann.userId,
        message_id: id,
        recipient: { type: "channel", channel_id: channelId, topic: "draft" },
      },
      {
        id: 1,
        type: "typing_edit_message",
        op: "stop",
        sender_id: ann.userId,
        message_id: id,
        recipient: { type: "channel", channel_id: channelId, topic: "draft" },
      },
    ]);
    expect(await drain(ann, qa)).toEqual([]);
  });

  test("direct message: every participant; others may not", async () => {
    const { id } = await ok(ann.post("/messages", { type: "direct", to: [bob.userId], content: "v1" }));
    const qb = await ok(bob.post("/register", { event_types: ["typing_edit_message"] }));
    await ok(ann.post(`/messages/${id}/typing`, { op: "start" }));
    const [e] = await drain(bob, qb);
    expect(e).toMatchObject({ type: "typing_edit_message", op: "start", sender_id: ann.userId, message_id: id, recipient: { type: "direct" } });
    expect(e.recipient.user_ids.sort()).toEqual([ann.userId, bob.userId].sort());
    await expectError(carl.post(`/messages/${id}/typing`, { op: "start" }), 400, "BAD_REQUEST", "Invalid message(s)");
    await expectError(ann.post(`/messages/${id}/typing`, { op: "typing" }), 400, "BAD_REQUEST", "Invalid op");
  });
});
