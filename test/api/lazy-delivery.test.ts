// Lazy delivery (store/lazy-delivery.ts): a channel send writes rows only for the sender and users whose
// flags say something; every other subscriber's row is written when they next read. These tests check
// that nobody can tell: flags, unread counts, access, and the audiences of later changes are what they
// would be had every row been written at send time.
import { raw } from "../../src/db/raw";
import { idsValue } from "../../src/db/in-ids";
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Client } from "../helpers/client";
import { drain } from "../helpers/events";
import { expectError, ok } from "../helpers/client";
import { startServer, type TestServer } from "../helpers/server";
import { deliverBacklog } from "../../src/actions/catch-up";
import { readPendingRows, writePendingRead } from "../../src/store/lazy-delivery";
import { deleteMessages } from "../../src/store/messages";

let s: TestServer;
let ann: Client, bob: Client, cat: Client;
let vault: number, other: number;

const rowsOf = async (messageId: number) =>
  await raw(s.app.db).all<{ user_id: number; flags: number }>("SELECT user_id, flags FROM user_messages WHERE message_id = ? ORDER BY user_id", messageId);
const send = async (c: Client, to: number, content: string, topic = "t") =>
  (await ok(c.post("/messages", { type: "stream", to, topic, content }))).id as number;
const queue = async (c: Client, types: string[]) => (await ok(c.post("/register", { event_types: types }))).queue_id as string;

beforeAll(async () => {
  s = await startServer();
  ann = await s.newUser({ name: "Ann Lazy" });
  bob = await s.newUser({ name: "Bob Lazy" });
  cat = await s.newUser({ name: "Cat Lazy" });
  // History not shared: what each user received is exactly what they may read.
  vault = (
    await ok(
      ann.post("/channels/create", {
        name: "vault",
        subscribers: [ann.userId, bob.userId, cat.userId],
        invite_only: true,
        history_public_to_subscribers: false,
      }),
    )
  ).id;
  other = (
    await ok(ann.post("/channels/create", { name: "other", subscribers: [ann.userId, cat.userId], invite_only: true, history_public_to_subscribers: false }))
  ).id;
  for (const c of [ann, bob, cat]) await ok(c.post("/mark_all_as_read"));
});
afterAll(() => s.stop());

describe("sending and reading", () => {
  test("a send writes the sender's and the mentioned user's rows; a reader's row appears, unread, when they read", async () => {
    const id = await send(ann, vault, "hello @**Cat Lazy**");
    expect((await rowsOf(id)).map((r) => r.user_id)).toEqual([ann.userId, cat.userId].sort((a, b) => a! - b!) as number[]);
    const m = (await ok(bob.get(`/messages/${id}`))).message;
    expect(m.flags).toEqual([]);
    expect((await rowsOf(id)).map((r) => r.user_id)).toContain(bob.userId!);
    expect((await ok(cat.get(`/messages/${id}`))).message.flags).toEqual(["mentioned"]);
  });

  test("unread counts, the first_unread anchor, is:unread and max_message_id include messages not yet written", async () => {
    await ok(bob.post("/mark_all_as_read"));
    const id = await send(ann, vault, "count me");
    const r = await ok(bob.post("/register", { fetch_event_types: ["update_message_flags", "message"] }));
    expect(r.unread_msgs.count).toBe(1);
    expect(r.unread_msgs.streams).toEqual([{ stream_id: vault, topic: "t", unread_message_ids: [id] }]);
    expect(r.max_message_id).toBe(id);
    const id2 = await send(ann, vault, "and me");
    const f = await ok(
      bob.get("/messages", { anchor: "first_unread", num_before: 0, num_after: 5, narrow: JSON.stringify([{ operator: "is", operand: "unread" }]) }),
    );
    expect(f.messages.map((x: any) => x.id)).toEqual([id, id2]);
    await ok(bob.post("/mark_stream_as_read", { stream_id: vault }));
    expect((await ok(bob.post("/register", { fetch_event_types: ["update_message_flags"] }))).unread_msgs.count).toBe(0);
  });

  test("flags on a message not yet written are the user's own, not historical", async () => {
    const id = await send(ann, vault, "star me");
    await ok(bob.post("/messages/flags", { messages: JSON.stringify([id]), op: "add", flag: "starred" }));
    expect((await ok(bob.get(`/messages/${id}`))).message.flags).toEqual(["starred"]);
  });
});

describe("who received what", () => {
  test("unsubscribing keeps what was received; nothing after it; subscribing again receives only what follows", async () => {
    const before = await send(ann, vault, "before leaving");
    await ok(bob.delete("/users/me/subscriptions", { subscriptions: JSON.stringify(["vault"]) }));
    const during = await send(ann, vault, "while away");
    expect((await ok(bob.get(`/messages/${before}`))).message.flags).toEqual([]);
    await expectError(bob.get(`/messages/${during}`), 400, "BAD_REQUEST", "Invalid message(s)");
    await ok(ann.post("/users/me/subscriptions", { subscriptions: JSON.stringify([{ name: "vault" }]), principals: JSON.stringify([bob.userId]) }));
    const after = await send(ann, vault, "welcome back");
    const got = await ok(
      bob.get("/messages", { anchor: "newest", num_before: 50, num_after: 0, narrow: JSON.stringify([{ operator: "channel", operand: vault }]) }),
    );
    const ids = got.messages.map((x: any) => x.id);
    expect(ids).toContain(before);
    expect(ids).toContain(after);
    expect(ids).not.toContain(during);
  });

  test("a deactivated user receives nothing until reactivated", async () => {
    const kept = await send(ann, vault, "before deactivation");
    await ok(s.owner.delete(`/users/${cat.userId}`));
    const missed = await send(ann, vault, "while deactivated");
    await ok(s.owner.post(`/users/${cat.userId}/reactivate`));
    const next = await send(ann, vault, "after reactivation");
    expect((await ok(cat.get(`/messages/${kept}`))).message.flags).toEqual([]);
    await expectError(cat.get(`/messages/${missed}`), 400, "BAD_REQUEST", "Invalid message(s)");
    expect((await ok(cat.get(`/messages/${next}`))).message.flags).toEqual([]);
  });
});

describe("changes to a message reach subscribers who have not read it", () => {
  test("reactions, edits (with a new mention) and deletion", async () => {
    const q = await queue(bob, ["reaction", "update_message", "delete_message"]);
    const id = await send(ann, vault, "plain");
    await ok(ann.post(`/messages/${id}/reactions`, { emoji_name: "octopus" }));
    await ok(ann.patch(`/messages/${id}`, { content: "now for @**Bob Lazy**" }));
    let evs = await drain(bob, q);
    expect(evs.map((e) => e.type)).toEqual(["reaction", "update_message"]);
    expect(evs[1].flags).toEqual(["mentioned"]);
    expect((await ok(bob.get(`/messages/${id}`))).message.flags).toEqual(["mentioned"]);
    const id2 = await send(ann, vault, "short-lived");
    await ok(ann.delete(`/messages/${id2}`));
    evs = await drain(bob, q);
    expect(evs.at(-1)).toMatchObject({ type: "delete_message", message_id: id2 });
  });

  test("moving to a channel the reader is not in takes the message away from them", async () => {
    const q = await queue(bob, ["delete_message"]);
    const id = await send(ann, vault, "moving out", "mover");
    await ok(ann.patch(`/messages/${id}`, { stream_id: other, propagate_mode: "change_one" }));
    expect((await drain(bob, q)).at(-1)).toMatchObject({ type: "delete_message", message_id: id });
    await expectError(bob.get(`/messages/${id}`), 400, "BAD_REQUEST", "Invalid message(s)");
    expect((await ok(cat.get(`/messages/${id}`))).message.id).toBe(id);
  });
});

describe("housekeeping", () => {
  test("writes the rows of subscriptions far behind, a bounded chunk at a time", async () => {
    const dan = await s.newUser({ name: "Dan Lazy" });
    const backlog = (await ok(ann.post("/channels/create", { name: "backlog", subscribers: [ann.userId, dan.userId] }))).id;
    const backlogOf = async (lag: number, limit: number) => await deliverBacklog(s.app, lag, limit);
    await backlogOf(1, 1_000_000); // whatever earlier tests left behind
    const ids: number[] = [];
    for (let i = 0; i < 5; i++) ids.push(await send(ann, backlog, `backlog ${i}`));
    expect((await Promise.all(ids.map(rowsOf))).map((r) => r.length)).toEqual([1, 1, 1, 1, 1]); // the sender's
    // Two subscriptions 5 behind (Ann's rows exist already; writing them again changes nothing).
    expect(await backlogOf(3, 7)).toBe(7);
    expect(await backlogOf(3, 7)).toBe(3);
    expect(await backlogOf(3, 7)).toBe(0);
    expect((await Promise.all(ids.map(rowsOf))).map((rows) => rows.find((r) => r.user_id === dan.userId)?.flags)).toEqual([0, 0, 0, 0, 0]);
    expect((await ok(dan.post("/register", { fetch_event_types: ["update_message_flags"] }))).unread_msgs.count).toBeGreaterThanOrEqual(5);
  });
});

describe("catch-up reads outside the writer", () => {
  const throughOf = async (userId: number, channelId: number) =>
    (await raw(s.app.db).get<{ t: number }>("SELECT delivered_through AS t FROM subscriptions WHERE user_id = ? AND channel_id = ?", userId, channelId))!.t;
  const channelRead = async (c: Client, channel: number) =>
    (
      await ok(c.get("/messages", { anchor: "newest", num_before: 50, num_after: 0, narrow: JSON.stringify([{ operator: "channel", operand: channel }]) }))
    ).messages.map((x: any) => x.id) as number[];

  test("the transaction writes only the ids read before it; a message deleted in between gets no row", async () => {
    const eve = await s.newUser({ name: "Eve Lazy" });
    const quiet = (await ok(ann.post("/channels/create", { name: "quiet", subscribers: [ann.userId, eve.userId], invite_only: true }))).id;
    const start = await channelRead(eve, quiet); // the channel's announcement, caught up
    const [m1, m2] = [await send(ann, quiet, "one"), await send(ann, quiet, "two")];
    const pending = await readPendingRows(s.app.db, { userId: eve.userId! }); // no transaction open for it
    expect(pending.map((p) => [p.channelId, p.ids, p.count])).toEqual([[quiet, idsValue(s.app.db, [m1, m2]), 2]]);
    // A change that leaves the subscription alone (an API deletion would write her rows first).
    await s.app.tx(async (tx) => await deleteMessages(tx.db, [m1]));
    const m3 = await send(ann, quiet, "three"); // after the read: stays pending
    expect(await s.app.tx(async (tx) => await writePendingRead(tx.db, pending))).toBe(true);
    expect((await rowsOf(m2)).map((r) => r.user_id)).toContain(eve.userId!);
    expect((await rowsOf(m3)).map((r) => r.user_id)).not.toContain(eve.userId!);
    expect(await throughOf(eve.userId!, quiet)).toBe(pending[0]!.upTo);
    expect(await channelRead(eve, quiet)).toEqual([...start, m2, m3]);
  });

  test("a subscription that changed between the read and the write is left alone (its guard fails)", async () => {
    const fay = await s.newUser({ name: "Fay Lazy" });
    const secret = (
      await ok(ann.post("/channels/create", { name: "secret", subscribers: [ann.userId, fay.userId], invite_only: true, history_public_to_subscribers: false }))
    ).id;
    const start = await channelRead(fay, secret);
    const before = await send(ann, secret, "before leaving");
    const pending = await readPendingRows(s.app.db, { userId: fay.userId! });
    // Meanwhile Fay leaves, misses a message and is added back: her subscription now starts after it.
    await ok(fay.delete("/users/me/subscriptions", { subscriptions: JSON.stringify(["secret"]) }));
    const away = await send(ann, secret, "while away");
    await ok(ann.post("/users/me/subscriptions", { subscriptions: JSON.stringify([{ name: "secret" }]), principals: JSON.stringify([fay.userId]) }));
    const resubscribed = await throughOf(fay.userId!, secret);
    expect(resubscribed).toBeGreaterThanOrEqual(away);
    // Written blindly, the stale read would move delivered_through back before `away`, and her next
    // catch-up would give her a message sent while she was not subscribed.
    expect(await s.app.tx(async (tx) => await writePendingRead(tx.db, pending))).toBe(false);
    expect(await throughOf(fay.userId!, secret)).toBe(resubscribed);
    const after = await send(ann, secret, "welcome back");
    expect(await channelRead(fay, secret)).toEqual([...start, before, after]);
    expect((await rowsOf(away)).map((r) => r.user_id)).not.toContain(fay.userId!);
  });
});
