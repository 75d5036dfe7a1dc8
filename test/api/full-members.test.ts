import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { syncFullMembers } from "../../src/actions/users";
import { findRealmById } from "../../src/store/realms";
import { ok } from "../helpers/client";
import { startServer, type TestServer } from "../helpers/server";

let s: TestServer;
beforeAll(async () => {
  s = await startServer();
});
afterAll(() => s.stop());

const DAY = 86400;

describe("role:fullmembers and waiting_period_threshold", () => {
  test("new members join role:fullmembers once their account is old enough; the threshold applies at once when changed", async () => {
    const groups = (await ok(s.owner.get("/user_groups"))).user_groups;
    const full = groups.find((g: any) => g.name === "role:fullmembers").id;
    const isFull = async (id: number) => (await ok(s.owner.get(`/user_groups/${full}/members/${id}`, { direct_member_only: true }))).is_user_group_member;

    await ok(s.owner.patch("/realm", { waiting_period_threshold: 3 }));
    const old = await s.newUser();
    expect(await isFull(old.userId!)).toBe(false);
    const q = await ok(s.owner.post("/register", { event_types: ["user_group"] }));

    s.clock.advance(4 * DAY);
    try {
      const fresh = await s.newUser(); // joined "now", four days on
      expect(await syncFullMembers(s.app, (await findRealmById(s.app.db, 1))!)).toBe(1);
      await s.app.writer.settled();
      expect(await isFull(old.userId!)).toBe(true);
      expect(await isFull(fresh.userId!)).toBe(false);
      const ev = (await ok(s.owner.get("/events", { queue_id: q.queue_id, dont_block: true }))).events;
      expect(ev).toContainEqual(expect.objectContaining({ type: "user_group", op: "add_members", group_id: full, user_ids: [old.userId] }));

      await ok(s.owner.patch("/realm", { waiting_period_threshold: 0 }));
      expect(await isFull(fresh.userId!)).toBe(true);
    } finally {
      s.clock.reset();
    }
  });
});
