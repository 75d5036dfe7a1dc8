// Reminders (Zulip's /reminders): stored with scheduled messages, delivered by the same scheduler as a
// direct message from the notification bot quoting the message, with `reminders` events and state.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { twoMembersInAChannel } from "../helpers/cast";
import { expectError, ok, type Client } from "../helpers/client";
import { drain, eventsUntil } from "../helpers/events";
import type { TestServer } from "../helpers/server";

let s: TestServer;
let ann: Client;
let bob: Client;
let carl: Client;

beforeAll(async () => {
  ({ s, ann, bob } = await twoMembersInAChannel(["Ann", "Bob"], { name: "remind", invite_only: true }));
  carl = await s.newUser({ name: "Carl" });
});
afterAll(() => s.stop());

describe("reminders", () => {
  test("create, list, register state and delete, with events", async () => {
    const { id } = await ok(bob.post("/messages", { type: "stream", to: "remind", topic: "deadline", content: "Report due **Friday**" }));
    const q = await ok(ann.post("/register", { event_types: ["reminders"] }));
    expect(q.reminders).toEqual([]);
    const at = s.clock.now() + 3600;
    const { reminder_id } = await ok(ann.post("/reminders", { message_id: id, scheduled_delivery_timestamp: at, note: "finish the draft" }));
    const { reminders } = await ok(ann.get("/reminders"));
    expect(reminders).toHaveLength(1);
    expect(reminders[0]).toMatchObject({
      reminder_id,
      type: "private",
      to: [ann.userId],
      scheduled_delivery_timestamp: at,
      failed: false,
      reminder_target_message_id: id,
    });
    expect(reminders[0].content).toContain("You requested a reminder for the following message. Note:\n > finish the draft");
    expect(reminders[0].content).toContain(`@_**Bob|${bob.userId}** [said](#narrow/channel/`);
    expect(reminders[0].content).toContain("```quote\nReport due **Friday**\n```");
    expect((await ok(ann.post("/register", { fetch_event_types: ["reminders"] }))).reminders).toEqual(reminders);
    expect((await ok(ann.get("/scheduled_messages"))).scheduled_messages).toEqual([]); // kept apart
    await ok(ann.delete(`/reminders/${reminder_id}`));
    expect((await ok(ann.get("/reminders"))).reminders).toEqual([]);
    const events = await drain(ann, q);
    expect(events.map((e) => [e.type, e.op])).toEqual([
      ["reminders", "add"],
      ["reminders", "remove"],
    ]);
    expect(events[0].reminders[0]).toEqual(reminders[0]);
    expect(events[1].reminder_id).toBe(reminder_id);
  });

  test("errors: past times, unreadable messages, others' reminders", async () => {
    const { id } = await ok(bob.post("/messages", { type: "stream", to: "remind", topic: "x", content: "secret" }));
    await expectError(
      ann.post("/reminders", { message_id: id, scheduled_delivery_timestamp: s.clock.now() - 1 }),
      400,
      "BAD_REQUEST",
      "Scheduled delivery time must be in the future.",
    );
    await expectError(carl.post("/reminders", { message_id: id, scheduled_delivery_timestamp: s.clock.now() + 60 }), 400, "BAD_REQUEST", "Invalid message(s)");
    const { reminder_id } = await ok(ann.post("/reminders", { message_id: id, scheduled_delivery_timestamp: s.clock.now() + 60 }));
    await expectError(bob.delete(`/reminders/${reminder_id}`), 404, "BAD_REQUEST", "Reminder does not exist");
    await expectError(ann.delete("/reminders/99999"), 404, "BAD_REQUEST", "Reminder does not exist");
    await ok(ann.delete(`/reminders/${reminder_id}`));
  });

  test("delivered when due by the notification bot as a direct message, once", async () => {
    const { id } = await ok(bob.post("/messages", { type: "direct", to: [ann.userId], content: "call me back" }));
    const q = await ok(ann.post("/register", { event_types: ["reminders", "message"] }));
    const at = s.clock.now() + 900;
    const { reminder_id } = await ok(ann.post("/reminders", { message_id: id, scheduled_delivery_timestamp: at }));
    const events = await s.clock.during(900, () => eventsUntil(ann, q, "the reminder's message", (all) => all.some((e) => e.type === "message")));
    const msg = events.find((e) => e.type === "message").message;
    expect(msg.sender_email).toStartWith("notification-bot");
    expect(msg.type).toBe("private");
    expect(msg.display_recipient.map((u: any) => u.id).sort()).toEqual([ann.userId, msg.sender_id].sort());
    expect(msg.content).toContain("You requested a reminder for the following direct message.");
    expect(msg.content).toContain("call me back");
    expect(events.find((e) => e.type === "reminders" && e.op === "remove")).toMatchObject({ reminder_id });
    expect((await ok(ann.get("/reminders"))).reminders).toEqual([]);
    await Bun.sleep(600);
    expect((await drain(ann, q)).filter((e) => e.type === "message")).toHaveLength(1);
  }, 20_000);
});
