import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { expectError, ok } from "../helpers/client";
import { startServer, type TestServer } from "../helpers/server";

let s: TestServer;
beforeAll(async () => {
  s = await startServer();
});
afterAll(() => s.stop());

describe("presence", () => {
  test("coming online reaches the realm, in the legacy or the simplified shape per client capability", async () => {
    const ann = await s.newUser({ name: "Ann Presence" });
    const legacy = await ok(s.owner.post("/register", { event_types: ["presence"] }));
    const modern = await ok(s.owner.post("/register", { event_types: ["presence"], client_capabilities: { simplified_presence_events: true } }));
    const r = await ok(ann.post("/users/me/presence", { status: "active", slim_presence: true }));
    expect(r.presences[String(ann.userId)]).toEqual({ active_timestamp: expect.any(Number), idle_timestamp: expect.any(Number) });
    expect(r.presence_last_update_id).toBeGreaterThanOrEqual(0);

    const l = await ok(s.owner.get("/events", { queue_id: legacy.queue_id, dont_block: true }));
    expect(l.events).toEqual([
      expect.objectContaining({
        type: "presence",
        user_id: ann.userId,
        email: ann.email,
        presence: { website: expect.objectContaining({ status: "active", client: "website" }) },
      }),
    ]);
    expect(l.events[0].presences).toBeUndefined();
    const m = await ok(s.owner.get("/events", { queue_id: modern.queue_id, dont_block: true }));
    expect(m.events).toEqual([
      { type: "presence", id: 0, presences: { [ann.userId!]: { active_timestamp: expect.any(Number), idle_timestamp: expect.any(Number) } } },
    ]);

    // A second ping while still active changes nothing others see: no event.
    await ok(ann.post("/users/me/presence", { status: "active", ping_only: true }));
    expect((await ok(s.owner.get("/events", { queue_id: modern.queue_id, last_event_id: 0, dont_block: true }))).events).toEqual([]);
  });

  test("realm and per-user presence, register state; bad status refused", async () => {
    const bob = await s.newUser();
    await ok(bob.post("/users/me/presence", { status: "idle" }));
    const realm = await ok(s.owner.get("/realm/presence"));
    expect(realm.presences[bob.email!].aggregated.status).toBe("idle");
    const one = await ok(s.owner.get(`/users/${bob.userId}/presence`));
    expect(one.presence.website.status).toBe("idle");
    expect((await ok(s.owner.get(`/users/${bob.email}/presence`))).presence).toEqual(one.presence);
    const reg = await ok(s.owner.post("/register", { fetch_event_types: ["presence"], slim_presence: true }));
    expect(reg.presences[String(bob.userId)]).toBeDefined();
    await expectError(bob.post("/users/me/presence", { status: "away" }), 400, "BAD_REQUEST", "Invalid status: away");
  });
});
