// Reminders (Zulip's /reminders): stored with scheduled messages, delivered by the same scheduler as a
// direct message from the notification bot quoting the message, with `reminders` events and state.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { expectError, ok, type Client } from "../helpers/client";
import { startServer, type TestServer } from "../helpers/server";

let s: TestServer;
let ann: Client;
let bob: Client;
let carl: Client;
const realNow = () => Math.floor(Date.now() / 1000);

beforeAll(async () => {
  s = await startServer();
  ann = await s.newUser({ name: "Ann" });
  bob = await s.newUser({ name: "Bob" });
  carl = await s.newUser({ name: "Carl" });
  await ok(s.owner.post("/channels/create", { name: "remind", subscribers: [ann.userId, bob.userId], invite_only: true }));
});
afterAll(() => s.stop());

const drain = async (c: Client, q: Record<string, any>) =>
  (await ok(c.get("/events", { queue_id: q.queue_id, last_event_id: -1, dont_block: true }))).events as any[];

async function waitFor<T>(fn: () => Promise<T>, ms = 10_000): Promise<T> {
  const until = Date.now() + ms;
  for (;;) {
    const v = await fn();
    if (v) return v;
    if (Date.now() > until) throw new Error("not reached in time");
    await Bun.sleep(100);
  }
}

describe("reminders", () => {
  test("create, list, register state and delete, with events", async () => {
    const { id } = await ok(bob.post("/messages", { type: "stream", to: "remind", topic: "deadline", content: "Report due **Friday**" }));
    const q = await ok(ann.post("/register", { event_types: ["reminders"] }));
    expect(q.reminders).toEqual([]);
    const at = realNow() + 3600;
    const { reminder_id } = await ok(ann.post("/reminders", { message_id: id, scheduled_delivery_timestamp: at, note: "finish the draft" }));
    const { reminders } = await ok(ann.get("/reminders"));
    expect(reminders).toHaveLength(1);
    expect(reminders[0]).toMatchObject({ reminder_id, type: "private", to: [ann.userId], scheduled_delivery_timestamp: at, failed: false, reminder_target_message_id: id });
    expect(reminders[0].content).toContain("You requested a reminder for the following message. Note:\n > finish the draft");
    expect(reminders[0].content).toContain(`@_**Bob|${bob.userId}** [said](#narrow/channel/`);
    expect(reminders[0].content).toContain("```quote\nReport due **Friday**\n```");
    expect((await ok(ann.post("/register", { fetch_event_types: ["reminders"] }))).reminders).toEqual(reminders);
    expect((await ok(ann.get("/scheduled_messages"))).scheduled_messages).toEqual([]); // kept apart
    await ok(ann.delete(`/reminders/${reminder_id}`));
    expect((await ok(ann.get("/reminders"))).reminders).toEqual([]);
    const events = await drain(ann, q);
    expect(events.map((e) => [e.type, e.op])).toEqual([["reminders", "add"], ["reminders", "remove"]]);
    expect(events[0].reminders[0]).toEqual(reminders[0]);
    expect(events[1].reminder_id).toBe(reminder_id);
  });

  test("errors: past times, unreadable messages, others' reminders", async () => {
    const { id } = await ok(bob.post("/messages", { type: "stream", to: "remind", topic: "x", content: "secret" }));
    await expectError(ann.post("/reminders", { message_id: id, scheduled_delivery_timestamp: realNow() - 1 }), 400, "BAD_REQUEST", "Scheduled delivery time must be in the future.");
    await expectError(carl.post("/reminders", { message_id: id, scheduled_delivery_timestamp: realNow() + 60 }), 400, "BAD_REQUEST", "Invalid message(s)");
    const { reminder_id } = await ok(ann.post("/reminders", { message_id: id, scheduled_delivery_timestamp: realNow() + 60 }));
    await expectError(bob.delete(`/reminders/${reminder_id}`), 404, "BAD_REQUEST", "Reminder does not exist");
    await expectError(ann.delete("/reminders/99999"), 404, "BAD_REQUEST", "Reminder does not exist");
    await ok(ann.delete(`/reminders/${reminder_id}`));
  });

  test("delivered when due by the notification bot as a direct message, once", async () => {
    const { id } = await ok(bob.post("/messages", { type: "direct", to: [ann.userId], content: "call me back" }));
    const q = await ok(ann.post("/register", { event_types: ["reminders", "message"] }));
    const at = realNow() + 900;
    const { reminder_id } = await ok(ann.post("/reminders", { message_id: id, scheduled_delivery_timestamp: at }));
    s.app.now = () => realNow() + 900;
    const events = (await waitFor(async () => {
      const all = await drain(ann, q);
      return all.some((e) => e.type === "message") ? all : null;
    }))!;
    s.app.now = realNow;
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
