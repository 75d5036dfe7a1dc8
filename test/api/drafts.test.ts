import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { expectError, ok, type Client } from "../helpers/client";
import { drain } from "../helpers/events";
import { startServer, type TestServer } from "../helpers/server";

let s: TestServer;
let ann: Client;
let bob: Client;
let channelId: number;

beforeAll(async () => {
  s = await startServer();
  ann = await s.newUser({ name: "Ann" });
  bob = await s.newUser({ name: "Bob" });
  const created = await ok(s.owner.post("/channels/create", { name: "drafting", subscribers: [ann.userId] }));
  channelId = created.id ?? created.stream_id ?? (await ok(ann.get("/get_stream_id", { stream: "drafting" }))).stream_id;
});
afterAll(() => s.stop());

describe("drafts", () => {
  test("the three types and their to rules; timestamps filled; register and events", async () => {
    const q = await ok(ann.post("/register", { event_types: ["drafts"] }));
    const before = Math.floor(Date.now() / 1000);
    const { ids } = await ok(
      ann.post("/drafts", {
        drafts: [
          { type: "", to: [5, 6], topic: "ignored", content: "loose thought" },
          { type: "stream", to: [channelId], topic: "plans", content: "channel draft", timestamp: 1595479019 },
          { type: "private", to: [bob.userId, bob.userId], topic: "ignored", content: "hi Bob" },
        ],
      }),
    );
    expect(ids.length).toBe(3);
    const { drafts, count } = await ok(ann.get("/drafts"));
    expect(count).toBe(3);
    // The most recently edited first, as Zulip documents (same second: the newer draft first).
    expect(drafts.map((d: any) => d.id)).toEqual([ids[2], ids[0], ids[1]]);
    expect(drafts[1]).toMatchObject({ id: ids[0], type: "", to: [], topic: "", content: "loose thought" });
    expect(drafts[1].timestamp).toBeGreaterThanOrEqual(before);
    expect(drafts[2]).toEqual({ id: ids[1], type: "stream", to: [channelId], topic: "plans", content: "channel draft", timestamp: 1595479019 });
    expect(drafts[0]).toMatchObject({ type: "private", to: [bob.userId], topic: "" });
    await ok(ann.patch(`/drafts/${ids[0]}`, { draft: { type: "private", to: [bob.userId], topic: "", content: "now for Bob" } }));
    await ok(ann.delete(`/drafts/${ids[2]}`));
    const ev = await drain(ann, q);
    expect(ev.map((e: any) => e.op)).toEqual(["add", "update", "remove"]);
    expect(ev[0].drafts.length).toBe(3);
    expect(ev[1].draft).toMatchObject({ id: ids[0], content: "now for Bob" });
    expect(ev[2].draft_id).toBe(ids[2]);
    expect((await ok(ann.post("/register", { fetch_event_types: ["drafts"] }))).drafts.map((d: any) => d.id)).toEqual([ids[0], ids[1]]);
    // Drafts are private to their owner.
    expect((await ok(bob.get("/drafts"))).drafts).toEqual([]);
    await expectError(bob.delete(`/drafts/${ids[0]}`), 404, "BAD_REQUEST", "Draft does not exist");
  });

  test("the contract's errors, and nothing is stored when one draft is bad", async () => {
    const n = (await ok(bob.get("/drafts"))).count;
    await expectError(
      bob.post("/drafts", {
        drafts: [
          { type: "", to: [], topic: "", content: "fine" },
          { type: "stream", to: [], topic: "t", content: "x" },
        ],
      }),
      400,
      "BAD_REQUEST",
      "Must specify exactly 1 channel ID for channel messages",
    );
    await expectError(
      bob.post("/drafts", { drafts: [{ type: "stream", to: [channelId, channelId + 1], topic: "t", content: "x" }] }),
      400,
      "BAD_REQUEST",
      "Must specify exactly 1 channel ID for channel messages",
    );
    await expectError(
      bob.post("/drafts", { drafts: [{ type: "", to: [], topic: "", content: "a\u0000b" }] }),
      400,
      "BAD_REQUEST",
      "Message must not contain null bytes",
    );
    await expectError(
      bob.post("/drafts", { drafts: [{ type: "stream", to: [channelId], topic: "a\u0000b", content: "x" }] }),
      400,
      "BAD_REQUEST",
      "Topic must not contain null bytes",
    );
    await expectError(
      bob.post("/drafts", { drafts: [{ type: "private", to: [999999], topic: "", content: "x" }] }),
      400,
      "BAD_REQUEST",
      "Invalid user ID 999999",
    );
    await expectError(bob.post("/drafts", { drafts: [{ type: "bogus", to: [], topic: "", content: "x" }] }), 400, "BAD_REQUEST", 'Invalid drafts[0]["type"]');
    await expectError(bob.patch("/drafts/999999", { draft: { type: "", to: [], topic: "", content: "x" } }), 404, "BAD_REQUEST", "Draft does not exist");
    expect((await ok(bob.get("/drafts"))).count).toBe(n);
  });

  test("turning off enable_drafts_synchronization deletes the server drafts and refuses new ones", async () => {
    const carl = await s.newUser();
    await ok(carl.post("/drafts", { drafts: [{ type: "", to: [], topic: "", content: "keep?" }] }));
    await ok(carl.patch("/settings", { enable_drafts_synchronization: false }));
    expect((await ok(carl.get("/drafts"))).drafts).toEqual([]);
    await expectError(
      carl.post("/drafts", { drafts: [{ type: "", to: [], topic: "", content: "x" }] }),
      400,
      "BAD_REQUEST",
      "User has disabled synchronizing drafts.",
    );
  });
});

describe("saved snippets", () => {
  test("create, edit, delete, with register state, events and errors", async () => {
    const q = await ok(ann.post("/register", { event_types: ["saved_snippets"] }));
    await expectError(ann.post("/saved_snippets", { title: " ", content: "x" }), 400, "BAD_REQUEST", "Title cannot be empty.");
    const { saved_snippet_id: id } = await ok(ann.post("/saved_snippets", { title: "Greeting", content: "Hello **there**" }));
    await ok(ann.patch(`/saved_snippets/${id}`, { content: "Hi" }));
    expect((await ok(ann.post("/register", { fetch_event_types: ["saved_snippets"] }))).saved_snippets).toEqual([
      { id, title: "Greeting", content: "Hi", date_created: expect.any(Number) },
    ]);
    await ok(ann.delete(`/saved_snippets/${id}`));
    await expectError(ann.delete(`/saved_snippets/${id}`), 404, "BAD_REQUEST", "Saved snippet does not exist.");
    expect((await drain(ann, q)).map((e: any) => e.op)).toEqual(["add", "update", "remove"]);
    expect((await ok(ann.get("/saved_snippets"))).saved_snippets).toEqual([]);
  });
});

describe("navigation views", () => {
  test("built-in views pin without names; custom views need one; events and errors", async () => {
    const q = await ok(ann.post("/register", { event_types: ["navigation_view"] }));
    await expectError(ann.post("/navigation_views", { fragment: "", is_pinned: true }), 400, "BAD_REQUEST", "fragment cannot be blank");
    await expectError(
      ann.post("/navigation_views", { fragment: "inbox", is_pinned: true, name: "Mine" }),
      400,
      "BAD_REQUEST",
      "Built-in views cannot have a custom name",
    );
    await ok(ann.post("/navigation_views", { fragment: "inbox", is_pinned: false }));
    await ok(ann.post("/navigation_views", { fragment: "narrow/channel/9-design", is_pinned: true, name: "Design" }));
    await ok(ann.patch("/navigation_views/inbox", { is_pinned: true }));
    await expectError(ann.patch("/navigation_views/nowhere", { is_pinned: true }), 404, "NOT_FOUND", "Navigation view does not exist.");
    expect((await ok(ann.get("/navigation_views"))).navigation_views).toEqual([
      { fragment: "inbox", is_pinned: true },
      { fragment: "narrow/channel/9-design", is_pinned: true, name: "Design" },
    ]);
    await ok(ann.delete(`/navigation_views/${encodeURIComponent("narrow/channel/9-design")}`));
    await expectError(ann.delete("/navigation_views/nowhere"), 404, "BAD_REQUEST", "Navigation view does not exist.");
    const ev = await drain(ann, q);
    expect(ev.map((e: any) => e.op)).toEqual(["add", "add", "update", "remove"]);
    expect(ev[2]).toMatchObject({ fragment: "inbox", data: { is_pinned: true } });
    expect((await ok(ann.post("/register", { fetch_event_types: ["navigation_views"] }))).navigation_views).toEqual([{ fragment: "inbox", is_pinned: true }]);
  });
});
