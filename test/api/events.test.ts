import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { expectError, ok } from "../helpers/client";
import { startServer, type TestServer } from "../helpers/server";

let s: TestServer;
beforeAll(async () => {
  s = await startServer({ env: { CONFAB_EVENTS_HEARTBEAT_SECONDS: "1" } });
});
afterAll(() => s.stop());

describe("register", () => {
  test("every event type at once validates, with version fields under both names", async () => {
    const r = await ok(s.owner.post("/register", {}));
    expect(typeof r.queue_id).toBe("string");
    expect(r.last_event_id).toBe(-1);
    expect(r.zulip_feature_level).toBe(r.service_feature_level);
    expect(r.realm_users.map((u: any) => u.user_id)).toContain(s.owner.userId);
    expect(r.user_id).toBe(s.owner.userId);
  });

  test("unauthenticated: client_gravatar and include_subscribers true refused", async () => {
    await expectError(s.anon.post("/register", { client_gravatar: true }), 400, "BAD_REQUEST", "Invalid 'client_gravatar' parameter for anonymous request");
    await expectError(s.anon.post("/register", { include_subscribers: true }), 400, "BAD_REQUEST", "Invalid 'include_subscribers' parameter for anonymous request");
  });
});

describe("events", () => {
  test("a new user reaches a registered queue; heartbeat when idle; delete then BAD_EVENT_QUEUE_ID", async () => {
    const r = await ok(s.owner.post("/register", { event_types: ["realm_user"] }));
    const poll = s.owner.get("/events", { queue_id: r.queue_id, last_event_id: -1 });
    const u = await s.newUser({ name: "Ann Event" });
    const got = await ok(poll);
    expect(got.events).toEqual([expect.objectContaining({ type: "realm_user", op: "add", person: expect.objectContaining({ user_id: u.userId, full_name: "Ann Event" }) })]);
    const hb = await ok(s.owner.get("/events", { queue_id: r.queue_id, last_event_id: got.events[0].id }));
    expect(hb.events).toEqual([{ type: "heartbeat", id: got.events[0].id + 1 }]);
    await ok(s.owner.delete("/events", { queue_id: r.queue_id }));
    const e = await expectError(s.owner.get("/events", { queue_id: r.queue_id }), 400, "BAD_EVENT_QUEUE_ID", `Bad event queue ID: ${r.queue_id}`);
    expect(e.queue_id).toBe(r.queue_id);
  });
});
