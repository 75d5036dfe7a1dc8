// Scheduled messages (Zulip's /scheduled_messages): CRUD, events and register state, delivery on time
// by the scheduler, failures marked as Zulip marks them, and delivery across a restart, exactly once.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { twoMembersInAChannel } from "../helpers/cast";
import { expectError, ok, type Client } from "../helpers/client";
import { drain } from "../helpers/events";
import { startServer, type TestServer } from "../helpers/server";
import { waitFor } from "../helpers/wait";

let s: TestServer;
let ann: Client;
let bob: Client;
let channelId: number;

beforeAll(async () => void ({ s, ann, bob, channelId } = await twoMembersInAChannel(["Ann", "Bob"], { name: "later" })));
afterAll(() => s.stop());

const lastMessages = async (c: Client, narrow: unknown[]) =>
  (await ok(c.get("/messages", { anchor: "newest", num_before: 20, num_after: 0, narrow, apply_markdown: false }))).messages as any[];

describe("scheduled messages", () => {
  test("create, list, edit and delete, with events and register state", async () => {
    const q = await ok(ann.post("/register", { event_types: ["scheduled_messages"] }));
    expect(q.scheduled_messages).toEqual([]);
    const at = s.clock.now() + 3600;
    const { scheduled_message_id: id } = await ok(
      ann.post("/scheduled_messages", { type: "stream", to: channelId, topic: "plans", content: "**later**", scheduled_delivery_timestamp: at }),
    );
    const dm = await ok(ann.post("/scheduled_messages", { type: "direct", to: [bob.userId], content: "psst", scheduled_delivery_timestamp: at - 10 }));
    const { scheduled_messages } = await ok(ann.get("/scheduled_messages"));
    expect(scheduled_messages).toEqual([
      {
        scheduled_message_id: dm.scheduled_message_id,
        type: "private",
        to: [bob.userId],
        content: "psst",
        rendered_content: "<p>psst</p>",
        scheduled_delivery_timestamp: at - 10,
        failed: false,
      },
      {
        scheduled_message_id: id,
        type: "stream",
        to: channelId,
        topic: "plans",
        content: "**later**",
        rendered_content: "<p><strong>later</strong></p>",
        scheduled_delivery_timestamp: at,
        failed: false,
      },
    ]);
    expect((await ok(bob.get("/scheduled_messages"))).scheduled_messages).toEqual([]); // only one's own

    await ok(ann.patch(`/scheduled_messages/${id}`, { content: "edited", topic: "new plans" }));
    await ok(ann.patch(`/scheduled_messages/${dm.scheduled_message_id}`, { type: "channel", to: channelId, topic: "was a DM" }));
    const after = (await ok(ann.get("/scheduled_messages"))).scheduled_messages;
    expect(after[0]).toMatchObject({ scheduled_message_id: dm.scheduled_message_id, type: "stream", to: channelId, topic: "was a DM", content: "psst" });
    expect(after[1]).toMatchObject({ scheduled_message_id: id, topic: "new plans", content: "edited", rendered_content: "<p>edited</p>" });

    await ok(ann.delete(`/scheduled_messages/${dm.scheduled_message_id}`));
    const events = await drain(ann, q);
    expect(events.map((e) => [e.type, e.op])).toEqual([
      ["scheduled_messages", "add"],
      ["scheduled_messages", "add"],
      ["scheduled_messages", "update"],
      ["scheduled_messages", "update"],
      ["scheduled_messages", "remove"],
    ]);
    expect(events[0].scheduled_messages[0]).toMatchObject({ scheduled_message_id: id, to: channelId });
    expect(events[2].scheduled_message).toMatchObject({ scheduled_message_id: id, content: "edited" });
    expect(events[4]).toMatchObject({ scheduled_message_id: dm.scheduled_message_id });
    const again = await ok(ann.post("/register", { fetch_event_types: ["scheduled_messages"] }));
    expect(again.scheduled_messages.map((m: any) => m.scheduled_message_id)).toEqual([id]);
    await ok(ann.delete(`/scheduled_messages/${id}`));
  });

  test("bad input gets Zulip's errors and changes nothing", async () => {
    const at = s.clock.now() + 3600;
    await expectError(
      ann.post("/scheduled_messages", { type: "stream", to: channelId, topic: "t", content: "x", scheduled_delivery_timestamp: s.clock.now() - 5 }),
      400,
      "BAD_REQUEST",
      "Scheduled delivery time must be in the future.",
    );
    await expectError(
      ann.post("/scheduled_messages", { type: "stream", to: 99999, topic: "t", content: "x", scheduled_delivery_timestamp: at }),
      400,
      "STREAM_DOES_NOT_EXIST",
      "Channel with ID '99999' does not exist",
    );
    await expectError(
      ann.post("/scheduled_messages", { type: "direct", to: [99999], content: "x", scheduled_delivery_timestamp: at }),
      400,
      "BAD_REQUEST",
      "Invalid user ID 99999",
    );
    // Zulip's file gives this operation no schema for a missing argument (it carries var_name): unchecked.
    await expectError(
      ann.post("/scheduled_messages", { type: "stream", to: channelId, topic: "t", scheduled_delivery_timestamp: at }, { unchecked: true }),
      400,
      "REQUEST_VARIABLE_MISSING",
      "Missing 'content' argument",
    );
    await expectError(ann.patch("/scheduled_messages/99999", { content: "x" }), 404, "BAD_REQUEST", "Scheduled message does not exist");
    await expectError(ann.delete("/scheduled_messages/99999"), 404, "BAD_REQUEST", "Scheduled message does not exist");
    const { scheduled_message_id: id } = await ok(
      ann.post("/scheduled_messages", { type: "stream", to: channelId, topic: "t", content: "x", scheduled_delivery_timestamp: at }),
    );
    await expectError(ann.patch(`/scheduled_messages/${id}`, {}), 400, "BAD_REQUEST", "Nothing to change");
    await expectError(
      ann.patch(`/scheduled_messages/${id}`, { type: "direct" }),
      400,
      "BAD_REQUEST",
      "Recipient required when updating type of scheduled message.",
    );
    await expectError(bob.delete(`/scheduled_messages/${id}`), 404, "BAD_REQUEST", "Scheduled message does not exist"); // not Bob's
    await ok(ann.delete(`/scheduled_messages/${id}`));
    expect((await ok(ann.get("/scheduled_messages"))).scheduled_messages).toEqual([]);
  });

  test("sent when due by the app's clock, not before, once, and removed with an event", async () => {
    const q = await ok(ann.post("/register", { event_types: ["scheduled_messages", "message"] }));
    const at = s.clock.now() + 600;
    const { scheduled_message_id: id } = await ok(
      ann.post("/scheduled_messages", {
        type: "stream",
        to: channelId,
        topic: "on time",
        content: "tick",
        scheduled_delivery_timestamp: at,
        read_by_sender: false,
      }),
    );
    s.clock.set(at - 1); // one second early: nothing yet
    await Bun.sleep(700);
    expect(await lastMessages(bob, [{ operator: "topic", operand: "on time" }])).toEqual([]);
    s.clock.set(at); // due: the next scheduler round sends it (bench/scheduled-delivery.ts measures how soon)
    const sent = await waitFor("the scheduled message", async () => (await lastMessages(bob, [{ operator: "topic", operand: "on time" }]))[0]);
    expect(sent).toMatchObject({ content: "tick", sender_id: ann.userId, stream_id: channelId, subject: "on time" });
    await Bun.sleep(600); // another scheduler round sends nothing more
    expect(await lastMessages(bob, [{ operator: "topic", operand: "on time" }])).toHaveLength(1);
    expect((await ok(ann.get("/scheduled_messages"))).scheduled_messages).toEqual([]);
    const events = await drain(ann, q);
    expect(events.find((e) => e.type === "scheduled_messages" && e.op === "remove")).toMatchObject({ scheduled_message_id: id });
    const own = events.find((e) => e.type === "message" && e.message.id === sent.id);
    expect(own.flags).not.toContain("read"); // read_by_sender: false
    await expectError(ann.patch(`/scheduled_messages/${id}`, { content: "too late" }), 400, "BAD_REQUEST", "Scheduled message was already sent");
    s.clock.reset();
  }, 20_000);

  test("a message that can no longer be sent is marked failed; the sender is told and may reschedule", async () => {
    const carl = await s.newUser({ name: "Carl" });
    const { id: closed } = await ok(s.owner.post("/channels/create", { name: "closing", subscribers: [carl.userId], invite_only: true }));
    const q = await ok(carl.post("/register", { event_types: ["scheduled_messages", "message"] }));
    const at = s.clock.now() + 600;
    const { scheduled_message_id: id } = await ok(
      carl.post("/scheduled_messages", { type: "stream", to: closed, topic: "t", content: "bye", scheduled_delivery_timestamp: at }),
    );
    await ok(s.owner.delete("/users/me/subscriptions", { subscriptions: ["closing"], principals: [carl.userId] }));
    const failed = await s.clock.during(600, () =>
      waitFor("the message marked failed", async () => (await ok(carl.get("/scheduled_messages"))).scheduled_messages.find((m: any) => m.failed)),
    );
    expect(failed).toMatchObject({ scheduled_message_id: id, failed: true, content: "bye" });
    const events = await drain(carl, q);
    expect(events.find((e) => e.type === "scheduled_messages" && e.op === "update")?.scheduled_message).toMatchObject({
      scheduled_message_id: id,
      failed: true,
    });
    const note = events.find((e) => e.type === "message" && e.message.sender_email.startsWith("notification-bot"));
    expect(note.message.content).toContain("was not sent because of the following error:");
    expect(note.message.content).toContain("View scheduled messages");
    // Zulip asks for a new time before a failed message is tried again.
    await expectError(carl.patch(`/scheduled_messages/${id}`, { content: "again" }), 400, "BAD_REQUEST", "Scheduled delivery time must be in the future.");
    await ok(carl.patch(`/scheduled_messages/${id}`, { scheduled_delivery_timestamp: at + 60, type: "direct", to: [carl.userId] }));
    expect((await ok(carl.get("/scheduled_messages"))).scheduled_messages[0]).toMatchObject({ failed: false, type: "private", to: [carl.userId] });
  }, 20_000);
});

describe("scheduled messages across a restart", () => {
  test("a message due while the server was down is sent at start, exactly once", async () => {
    const first = await startServer();
    const dan = await first.newUser({ name: "Dan" });
    const at = s.clock.now() + 1;
    await ok(dan.post("/scheduled_messages", { type: "direct", to: [dan.userId], content: "while you were out", scheduled_delivery_timestamp: at }));
    await first.stop({ keepData: true });
    await Bun.sleep(Math.max(0, at * 1000 - Date.now()) + 50);
    for (let round = 0; round < 2; round++) {
      const again = await startServer({ dataDir: first.dataDir });
      const danAgain = again.client(dan.email!, dan.apiKey!, dan.userId!);
      const sent = await lastMessages(danAgain, [{ operator: "dm", operand: [dan.userId] }]);
      expect(sent.map((m) => m.content)).toEqual(["while you were out"]);
      expect((await ok(danAgain.get("/scheduled_messages"))).scheduled_messages).toEqual([]);
      await again.stop({ keepData: round === 0 });
    }
  }, 20_000);
});
