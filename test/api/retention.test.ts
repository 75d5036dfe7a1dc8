import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { applyRetention } from "../../src/actions/retention";
import { ok } from "../helpers/client";
import { startServer, type TestServer } from "../helpers/server";

let s: TestServer;
beforeAll(async () => {
  s = await startServer();
});
afterAll(() => s.stop());

const DAY = 86400;
const ids = async (c: any, narrow: unknown[]) =>
  (await ok(c.get("/messages", { anchor: "newest", num_before: 100, num_after: 0, narrow }))).messages.map((m: any) => m.id);

describe("message retention", () => {
  test("a channel's retention deletes older messages with delete events; unlimited and inherited policies hold", async () => {
    const ann = await s.newUser();
    await ok(s.owner.post("/channels/create", { name: "short-lived", subscribers: [ann.userId], message_retention_days: 2 }));
    await ok(s.owner.post("/channels/create", { name: "kept", subscribers: [ann.userId], message_retention_days: "unlimited" }));
    await ok(s.owner.post("/channels/create", { name: "inherits", subscribers: [ann.userId] }));
    const old = (await ok(s.owner.post("/messages", { type: "stream", to: "short-lived", topic: "a", content: "old" }))).id;
    const kept = (await ok(s.owner.post("/messages", { type: "stream", to: "kept", topic: "a", content: "kept" }))).id;
    const inherits = (await ok(s.owner.post("/messages", { type: "stream", to: "inherits", topic: "a", content: "inherits" }))).id;
    const dm = (await ok(s.owner.post("/messages", { type: "direct", to: [ann.userId], content: "dm" }))).id;
    const q = await ok(ann.post("/register", { event_types: ["delete_message"], client_capabilities: { bulk_message_deletion: true } }));

    const doomed = await ids(ann, [["channel", "short-lived"]]); // ours, and the channel's creation note
    const keptIds = await ids(ann, [["channel", "kept"]]);
    const inheritIds = await ids(ann, [["channel", "inherits"]]);
    expect(keptIds).toContain(kept);
    expect(inheritIds).toContain(inherits);
    expect(doomed).toContain(old);
    expect(await applyRetention(s.app, s.app.now() + DAY)).toBe(0); // one day on: nothing is two days old
    expect(await applyRetention(s.app, s.app.now() + 3 * DAY)).toBe(doomed.length);
    await s.app.writer.settled();
    expect(await ids(ann, [["channel", "short-lived"]])).toEqual([]);
    expect(await ids(ann, [["channel", "kept"]])).toEqual(keptIds);
    expect(await ids(ann, [["channel", "inherits"]])).toEqual(inheritIds);
    expect(await ids(ann, [["is", "dm"]])).toContain(dm);
    const ev = (await ok(ann.get("/events", { queue_id: q.queue_id, dont_block: true }))).events;
    expect(ev).toContainEqual(expect.objectContaining({ type: "delete_message", message_ids: [old], message_type: "stream", topic: "a" }));
    expect(ev.flatMap((e: any) => e.message_ids).sort()).toEqual([...doomed].sort());

    // The organization's policy reaches channels that inherit it and direct messages; "unlimited" stays.
    await ok(s.owner.patch("/realm", { message_retention_days: 5 }));
    expect(await applyRetention(s.app, s.app.now() + 6 * DAY)).toBeGreaterThanOrEqual(inheritIds.length + 1);
    await s.app.writer.settled();
    expect(await ids(ann, [["channel", "inherits"]])).toEqual([]);
    expect(await ids(ann, [["is", "dm"]])).not.toContain(dm);
    expect(await ids(ann, [["channel", "kept"]])).toEqual(keptIds);
  });
});
