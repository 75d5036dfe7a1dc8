// The server's own bots are created when they first post; clients registered before then hear of them
// (a realm_user add) ahead of their first message, so no client shows that message as "Unknown user".
import { afterAll, beforeAll, expect, test } from "bun:test";
import type { Client } from "../helpers/client";
import { ok } from "../helpers/client";
import { eventsUntil, register } from "../helpers/events";
import { startServer, type TestServer } from "../helpers/server";

let s: TestServer;
let ann: Client, bob: Client;

beforeAll(async () => {
  s = await startServer();
  ann = await s.newUser({ name: "Ann Mover" });
  bob = await s.newUser({ name: "Bob Watcher" });
});
afterAll(() => s.stop());

test("the notification bot's first note is preceded by its realm_user add", async () => {
  const q = await register(bob, { event_types: ["realm_user", "message"] });
  expect((q.cross_realm_bots as { full_name: string }[]).map((b) => b.full_name)).not.toContain("Notification Bot");

  // Creating a channel with Bob in it has the notification bot announce it (its first message here).
  await ok(ann.post("/channels/create", { name: "town", subscribers: [ann.userId, bob.userId] }));
  const isNote = (e: any) => e.type === "message" && e.message.sender_full_name === "Notification Bot";
  const events = await eventsUntil(bob, q, "the bot's first note", (es) => es.some(isNote));
  const added = events.findIndex((e) => e.type === "realm_user" && e.op === "add" && e.person.full_name === "Notification Bot");
  expect(added).toBeGreaterThanOrEqual(0);
  expect(added).toBeLessThan(events.findIndex(isNote));
  expect(events[added].person).toMatchObject({ is_bot: true, user_id: events.find(isNote).message.sender_id });
});
