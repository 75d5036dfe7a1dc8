// PATCH /messages/{id} (content, topic, channel moves, propagate_mode, notifications, limits and
// permissions), the edit-history shapes, DELETE /messages/{id} and delete_topic.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Client } from "../helpers/client";
import { drain } from "../helpers/events";
import { expectError, ok } from "../helpers/client";
import { startServer, type TestServer } from "../helpers/server";

let s: TestServer;
let ann: Client, bob: Client, guest: Client;
let town: number, attic: number;

const send = async (c: Client, to: number, topic: string, content: string) =>
  (await ok(c.post("/messages", { type: "stream", to, topic, content }))).id as number;
const get = async (c: Client, id: number, extra: Record<string, unknown> = {}) => (await ok(c.get(`/messages/${id}`, extra))).message;
const topicIds = async (c: Client, channel: number, topic: string) =>
  (
    await ok(
      c.get("/messages", {
        anchor: "newest",
        num_before: 50,
        num_after: 0,
        narrow: JSON.stringify([
          { operator: "channel", operand: channel },
          { operator: "topic", operand: topic },
        ]),
      }),
    )
  ).messages.map((m: any) => m.id) as number[];

beforeAll(async () => {
  s = await startServer();
  ann = await s.newUser({ name: "Ann Editor" });
  bob = await s.newUser({ name: "Bob Editor" });
  guest = await s.newUser({ name: "Gwen Guest", role: 600 });
  town = (await ok(ann.post("/channels/create", { name: "town", subscribers: [ann.userId, bob.userId, guest.userId] }))).id;
  attic = (await ok(ann.post("/channels/create", { name: "attic", subscribers: [ann.userId], invite_only: true }))).id;
});
afterAll(() => s.stop());

describe("content edits", () => {
  test("the sender edits; update_message with each user's flags; edit_history most recent first", async () => {
    const id = await send(ann, town, "notes", "first draft");
    const q = await ok(bob.post("/register", { event_types: ["update_message"] }));
    await ok(ann.patch(`/messages/${id}`, { content: "second draft @**Bob Editor**" }));
    await ok(ann.patch(`/messages/${id}`, { content: "third draft" }));
    const [e1, e2] = await drain(bob, q.queue_id);
    expect(e1).toMatchObject({
      type: "update_message",
      user_id: ann.userId,
      message_id: id,
      message_ids: [id],
      rendering_only: false,
      orig_content: "first draft",
      orig_rendered_content: "<p>first draft</p>",
      content: "second draft @**Bob Editor**",
      stream_id: town,
      stream_name: "town",
      flags: ["mentioned"],
    });
    expect(e2.flags).toEqual([]);
    const m = await get(bob, id);
    expect(m.content).toBe("<p>third draft</p>");
    expect(m.edit_history.map((h: any) => h.prev_content)).toEqual(["second draft @**Bob Editor**", "first draft"]);
    expect(m.edit_history[0]).toEqual({
      user_id: ann.userId,
      timestamp: m.last_edit_timestamp,
      prev_content: "second draft @**Bob Editor**",
      prev_rendered_content: expect.stringContaining("user-mention"),
    });
  });

  test("GET /messages/{id}/history: snapshots oldest first with a content diff", async () => {
    const id = await send(ann, town, "hist", "hello world");
    await ok(ann.patch(`/messages/${id}`, { content: "hello brave world" }));
    await ok(ann.patch(`/messages/${id}`, { topic: "history" }));
    const h = (await ok(bob.get(`/messages/${id}/history`))).message_history;
    expect(h.length).toBe(3);
    expect(Object.keys(h[0]).sort()).toEqual(["content", "rendered_content", "timestamp", "topic", "user_id"]);
    expect(h[0]).toMatchObject({ topic: "hist", content: "hello world", user_id: ann.userId });
    expect(h[1]).toMatchObject({ topic: "hist", content: "hello brave world", prev_content: "hello world", prev_rendered_content: "<p>hello world</p>" });
    expect(h[1].content_html_diff).toBe('<p>hello <span class="highlight_text_inserted">brave</span> world</p>');
    expect(h[2]).toMatchObject({ topic: "history", prev_topic: "hist", content: "hello brave world" });
    expect(h[2].prev_content).toBeUndefined();
    await expectError(bob.get("/messages/999999/history"), 400, "BAD_REQUEST", "Invalid message(s)");
  });

  test("permissions and limits", async () => {
    const id = await send(ann, town, "perm", "mine");
    await expectError(bob.patch(`/messages/${id}`, { content: "yours" }), 400, "BAD_REQUEST", "You don't have permission to edit this message");
    await expectError(ann.patch(`/messages/${id}`), 400, "BAD_REQUEST", "Nothing to change");
    await expectError(
      ann.patch(`/messages/${id}`, { content: "x", prev_content_sha256: "0".repeat(64) }),
      400,
      "EXPECTATION_MISMATCH",
      "'prev_content_sha256' value does not match the expected value.",
    );
    await ok(ann.patch(`/messages/${id}`, { content: "  " }));
    expect((await get(ann, id, { apply_markdown: false })).content).toBe("(deleted)");
    await ok(s.owner.patch("/realm", { message_content_edit_limit_seconds: 1 }));
    const old = await send(ann, town, "perm", "old");
    await s.clock.during(3600, () =>
      expectError(ann.patch(`/messages/${old}`, { content: "late" }), 400, "BAD_REQUEST", "The time limit for editing this message has passed"),
    );
    await ok(s.owner.patch("/realm", { allow_message_editing: false }));
    await expectError(ann.patch(`/messages/${id}`, { content: "no" }), 400, "BAD_REQUEST", "Your organization has turned off message editing");
    await ok(s.owner.patch("/realm", { allow_message_editing: true, message_content_edit_limit_seconds: 600 }));
  });
});

describe("moves", () => {
  test("topic moves with propagate_mode and the notification bot's notes", async () => {
    const ids = [await send(ann, town, "trip", "one"), await send(bob, town, "trip", "two"), await send(ann, town, "trip", "three")];
    await ok(ann.patch(`/messages/${ids[1]}`, { topic: "journey", propagate_mode: "change_one", send_notification_to_old_thread: true }));
    expect(await topicIds(ann, town, "trip")).toEqual([ids[0], ids[2], expect.any(Number)]);
    const journey = await topicIds(ann, town, "journey");
    expect(journey.slice(0, 1)).toEqual([ids[1]]);
    const note = await get(ann, journey[1]!, { apply_markdown: false });
    expect(note).toMatchObject({
      sender_email: "notification-bot@confab.localhost",
      content: expect.stringMatching(/^\[A message\]\(#narrow\/channel\/.+\) was moved here from #\*\*town>trip\*\* by @_\*\*Ann Editor\|\d+\*\*\.$/),
    });
    const q = await ok(bob.post("/register", { event_types: ["update_message"] }));
    await ok(ann.patch(`/messages/${ids[0]}`, { topic: "journey", propagate_mode: "change_later", send_notification_to_new_thread: false }));
    const [ev] = await drain(bob, q.queue_id);
    expect(ev).toMatchObject({ orig_subject: "trip", subject: "journey", propagate_mode: "change_later", stream_id: town });
    expect(ev.message_ids.slice(0, 2)).toEqual([ids[0], ids[2]]);
    expect((await get(bob, ids[2]!)).edit_history[0]).toMatchObject({ prev_topic: "trip", topic: "journey", user_id: ann.userId });
  });

  test("resolving a topic; a guest may not move", async () => {
    const id = await send(ann, town, "bug", "broken");
    await ok(bob.patch(`/messages/${id}`, { topic: "✔ bug", propagate_mode: "change_all" }));
    const ids = await topicIds(ann, town, "✔ bug");
    expect((await get(ann, ids.at(-1)!, { apply_markdown: false })).content).toBe(`@_**Bob Editor|${bob.userId}** has marked this topic as resolved.`);
    const g = await send(guest, town, "guesty", "hi");
    await ok(s.owner.patch("/realm", { can_move_messages_between_topics_group: JSON.stringify({ new: await roleGroup("role:members") }) }));
    await expectError(guest.patch(`/messages/${g}`, { topic: "elsewhere" }), 400, "BAD_REQUEST", "You don't have permission to edit this message");
  });

  test("channel moves: new subscribers get the messages read; lost access gets delete events; history shapes", async () => {
    const id = await send(bob, town, "secretish", "move me");
    const q = await ok(bob.post("/register", { event_types: ["delete_message"], client_capabilities: { bulk_message_deletion: true } }));
    await expectError(bob.patch(`/messages/${id}`, { stream_id: attic }), 400, "BAD_REQUEST", "Invalid channel ID");
    await ok(ann.patch(`/messages/${id}`, { stream_id: attic, propagate_mode: "change_all" }));
    expect(await drain(bob, q.queue_id)).toEqual([expect.objectContaining({ type: "delete_message", message_ids: [id], stream_id: town, topic: "secretish" })]);
    await expectError(bob.get(`/messages/${id}`), 400, "BAD_REQUEST", "Invalid message(s)");
    const m = await get(ann, id);
    // Ann keeps her own (unread) row; nobody is notified anew by a move.
    expect(m).toMatchObject({ stream_id: attic, display_recipient: "attic", flags: [] });
    expect(m.edit_history[0]).toMatchObject({ prev_stream: town, stream: attic, user_id: ann.userId });
    expect(m.last_moved_timestamp).toBeNumber();
    const h = (await ok(ann.get(`/messages/${id}/history`))).message_history;
    expect(h[1]).toMatchObject({ prev_stream: town, stream: attic });
    await expectError(
      ann.patch(`/messages/${id}`, { stream_id: town, content: "x" }),
      400,
      "BAD_REQUEST",
      "Cannot change message content while changing channel",
    );
  });

  test("direct messages have no topics and cannot move", async () => {
    const { id } = await ok(ann.post("/messages", { type: "direct", to: JSON.stringify([bob.userId]), content: "dm" }));
    await expectError(ann.patch(`/messages/${id}`, { topic: "t" }), 400, "BAD_REQUEST", "Direct messages cannot have topics.");
    await expectError(ann.patch(`/messages/${id}`, { stream_id: town }), 400, "BAD_REQUEST", "Direct messages cannot be moved to channels.");
  });
});

async function roleGroup(name: string): Promise<number> {
  const groups = (await ok(s.owner.get("/user_groups"))).user_groups as any[];
  return groups.find((g) => g.name === name).id;
}

describe("deleting", () => {
  test("own messages within the limit; others' only with delete-any; delete_message events", async () => {
    const mine = await send(bob, town, "del", "oops");
    const theirs = await send(ann, town, "del", "keep");
    await expectError(bob.delete(`/messages/${theirs}`), 400, "BAD_REQUEST", "You don't have permission to delete this message");
    const q = await ok(ann.post("/register", { event_types: ["delete_message"] }));
    await ok(bob.delete(`/messages/${mine}`));
    expect(await drain(ann, q.queue_id)).toEqual([
      expect.objectContaining({ type: "delete_message", message_id: mine, message_type: "stream", stream_id: town, topic: "del" }),
    ]);
    await expectError(ann.get(`/messages/${mine}`), 400, "BAD_REQUEST", "Invalid message(s)");
    await ok(s.owner.delete(`/messages/${theirs}`));
    const old = await send(bob, town, "del", "ancient");
    await s.clock.during(86400, () => expectError(bob.delete(`/messages/${old}`), 400, "BAD_REQUEST", "The time limit for deleting this message has passed"));
  });

  test("delete_topic", async () => {
    await send(ann, town, "doomed", "a");
    await send(bob, town, "doomed", "b");
    await expectError(bob.post(`/streams/${town}/delete_topic`, { topic_name: "doomed" }), 400, "BAD_REQUEST", "Insufficient permission");
    expect((await ok(s.owner.post(`/streams/${town}/delete_topic`, { topic_name: "doomed" }))).complete).toBe(true);
    expect(await topicIds(ann, town, "doomed")).toEqual([]);
  });
});
