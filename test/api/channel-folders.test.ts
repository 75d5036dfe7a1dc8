import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { createRealm } from "../../src/actions/realms";
import { expectError, ok, type Client } from "../helpers/client";
import { startServer, type TestServer } from "../helpers/server";

let s: TestServer;
let admin: Client;
let member: Client;
let guest: Client;
beforeAll(async () => {
  s = await startServer();
  admin = await s.newUser({ role: 200 });
  member = await s.newUser({ role: 400 });
  guest = await s.newUser({ role: 600 });
});
afterAll(() => s.stop());

const folders = async (c: Client, params: Record<string, unknown> = {}) => (await ok(c.get("/channel_folders", params))).channel_folders as any[];
const create = async (c: Client, name: string, description?: string) =>
  (await ok(c.post("/channel_folders/create", { name, description }))).channel_folder_id as number;
/** The events waiting in a queue, without their ids. */
const pending = async (c: Client, queueId: string) =>
  (await ok(c.get("/events", { queue_id: queueId, dont_block: true }))).events.map(({ id, ...e }: any) => e).filter((e: any) => e.type !== "heartbeat");

describe("creating channel folders", () => {
  test("an administrator creates one; its description is rendered like a channel's", async () => {
    const before = Math.floor(Date.now() / 1000);
    const id = await create(admin, "Backend", "Channels for **backend** discussions");
    const f = (await folders(member)).find((x) => x.id === id);
    expect(f).toEqual({
      id,
      name: "Backend",
      description: "Channels for **backend** discussions",
      rendered_description: "<p>Channels for <strong>backend</strong> discussions</p>",
      order: expect.any(Number),
      creator_id: admin.userId,
      date_created: expect.any(Number),
      is_archived: false,
    });
    expect(f.date_created).toBeGreaterThanOrEqual(before - 1);
    // The owner is an administrator too; no description is an empty one.
    const id2 = await create(s.owner, "  Frontend  ");
    expect((await folders(admin)).find((x) => x.id === id2)).toMatchObject({
      name: "Frontend",
      description: "",
      rendered_description: "",
      creator_id: s.owner.userId,
    });
  });

  test("members and guests are refused; bad names are refused; nothing is created", async () => {
    const before = await folders(s.owner, { include_archived: true });
    await expectError(member.post("/channel_folders/create", { name: "Mine" }), 400, "UNAUTHORIZED_PRINCIPAL", "Must be an organization administrator");
    await expectError(guest.post("/channel_folders/create", { name: "Mine" }), 400, "UNAUTHORIZED_PRINCIPAL", "Must be an organization administrator");
    await expectError(admin.post("/channel_folders/create", {}, { unchecked: true }), 400, "REQUEST_VARIABLE_MISSING", "Missing 'name' argument");
    await expectError(admin.post("/channel_folders/create", { name: "   " }), 400, "BAD_REQUEST", "Channel folder name can't be empty.");
    await expectError(admin.post("/channel_folders/create", { name: "x".repeat(61) }), 400, "BAD_REQUEST", "name is too long (limit: 60 characters)");
    await expectError(
      admin.post("/channel_folders/create", { name: "Fine", description: "d".repeat(1025) }),
      400,
      "BAD_REQUEST",
      "description is too long (limit: 1024 characters)",
    );
    await expectError(
      admin.post("/channel_folders/create", { name: "bad\u0007bell" }),
      400,
      "BAD_REQUEST",
      "Invalid character in channel folder name, at position 4.",
    );
    await create(admin, "Unique one");
    await expectError(admin.post("/channel_folders/create", { name: "UNIQUE ONE" }), 400, "BAD_REQUEST", "Channel folder name already in use");
    expect((await folders(s.owner, { include_archived: true })).length).toBe(before.length + 1);
  });

  test("register announces Zulip's folder limits", async () => {
    const r = await ok(member.post("/register", { fetch_event_types: ["realm"] }));
    expect(r.max_channel_folder_name_length).toBe(60);
    expect(r.max_channel_folder_description_length).toBe(1024);
  });
});

describe("listing, changing and reordering", () => {
  test("GET /channel_folders is sorted by order and leaves archived folders out unless asked", async () => {
    const a = await create(admin, "List A");
    const b = await create(admin, "List B");
    const c = await create(admin, "List C");
    await ok(admin.patch(`/channel_folders/${b}`, { is_archived: true }));
    const shown = (await folders(member)).map((f) => f.id);
    expect(shown.filter((id) => [a, b, c].includes(id))).toEqual([a, c]);
    const all = await folders(member, { include_archived: true });
    expect(all.filter((f) => [a, b, c].includes(f.id)).map((f) => [f.id, f.is_archived])).toEqual([
      [a, false],
      [b, true],
      [c, false],
    ]);
    const orders = all.map((f) => f.order);
    expect(orders).toEqual([...orders].sort((x, y) => x - y));
    expect(new Set(orders).size).toBe(orders.length);
    // Guests may list them too.
    expect((await folders(guest)).map((f) => f.id)).toEqual(shown);
  });

  test("administrators change the name, description and archived state; others may not", async () => {
    const id = await create(admin, "Edit me", "old");
    await ok(admin.patch(`/channel_folders/${id}`, { name: "Edited", description: "Now with *style*" }));
    expect((await folders(member)).find((f) => f.id === id)).toMatchObject({
      name: "Edited",
      description: "Now with *style*",
      rendered_description: "<p>Now with <em>style</em></p>",
    });
    await ok(admin.patch(`/channel_folders/${id}`, { is_archived: true }));
    expect((await folders(member)).some((f) => f.id === id)).toBe(false);
    await ok(s.owner.patch(`/channel_folders/${id}`, { is_archived: false }));
    expect((await folders(member)).find((f) => f.id === id)).toMatchObject({ is_archived: false });

    await expectError(member.patch(`/channel_folders/${id}`, { name: "Hijack" }), 400, "UNAUTHORIZED_PRINCIPAL", "Must be an organization administrator");
    await expectError(admin.patch("/channel_folders/999999", { name: "Nowhere" }), 400, "BAD_REQUEST", "Invalid channel folder ID");
    await expectError(admin.patch(`/channel_folders/${id}`, { name: "" }), 400, "BAD_REQUEST", "Channel folder name can't be empty.");
    await create(admin, "Taken");
    await expectError(admin.patch(`/channel_folders/${id}`, { name: "taken" }), 400, "BAD_REQUEST", "Channel folder name already in use");
    // A change of case only is no clash with itself.
    await ok(admin.patch(`/channel_folders/${id}`, { name: "EDITED" }));
    expect((await folders(member)).find((f) => f.id === id)).toMatchObject({ name: "EDITED", description: "Now with *style*" });
  });

  test("an archived folder's name is free again; unarchiving it then clashes", async () => {
    const old = await create(admin, "Seasonal");
    await ok(admin.patch(`/channel_folders/${old}`, { is_archived: true }));
    const fresh = await create(admin, "seasonal");
    expect(fresh).not.toBe(old);
    await expectError(admin.patch(`/channel_folders/${old}`, { is_archived: false }), 400, "BAD_REQUEST", "Channel folder name already in use");
    await ok(admin.patch(`/channel_folders/${old}`, { is_archived: false, name: "Seasonal (old)" }));
    expect((await folders(member)).find((f) => f.id === old)).toMatchObject({ name: "Seasonal (old)", is_archived: false });
  });

  test("a folder with channels in it is not archived", async () => {
    const id = await create(admin, "Busy");
    const { id: channel } = await ok(admin.post("/channels/create", { name: "busy-channel", subscribers: [admin.userId], folder_id: id }));
    await expectError(
      admin.patch(`/channel_folders/${id}`, { is_archived: true }),
      400,
      "BAD_REQUEST",
      "You need to remove all the channels from this folder to archive it.",
    );
    expect((await folders(member)).find((f) => f.id === id)).toMatchObject({ is_archived: false });
    await ok(admin.patch(`/streams/${channel}`, { folder_id: null }));
    await ok(admin.patch(`/channel_folders/${id}`, { is_archived: true }));
  });

  test("PATCH /channel_folders reorders every folder; a bad mapping changes nothing", async () => {
    const ids = (await folders(s.owner, { include_archived: true })).map((f) => f.id);
    expect(ids.length).toBeGreaterThan(2);
    const reversed = [...ids].reverse();
    await ok(admin.patch("/channel_folders", { order: reversed }));
    const after = await folders(member, { include_archived: true });
    expect(after.map((f) => f.id)).toEqual(reversed);
    expect(after.map((f) => f.order)).toEqual(reversed.map((_, i) => i));

    await expectError(admin.patch("/channel_folders", { order: ids.slice(1) }), 400, "BAD_REQUEST", "Invalid order mapping");
    await expectError(admin.patch("/channel_folders", { order: [...ids, ids[0]] }), 400, "BAD_REQUEST", "Invalid order mapping");
    await expectError(admin.patch("/channel_folders", { order: [...ids.slice(1), 999999] }), 400, "BAD_REQUEST", "Invalid order mapping");
    await expectError(member.patch("/channel_folders", { order: ids }), 400, "UNAUTHORIZED_PRINCIPAL", "Must be an organization administrator");
    expect((await folders(member, { include_archived: true })).map((f) => f.id)).toEqual(reversed);
    // A new folder goes last.
    const last = await create(admin, "Latecomer");
    expect((await folders(member)).at(-1)!.id).toBe(last);
  });
});

describe("events and register", () => {
  test("every change reaches the realm's queues as a channel_folder event", async () => {
    const q = await ok(member.post("/register", { event_types: ["channel_folder"] }));
    const gq = await ok(guest.post("/register", { event_types: ["channel_folder"] }));
    const id = await create(admin, "Evented", "About **events**");
    const [added] = await pending(member, q.queue_id);
    expect(added).toEqual({
      type: "channel_folder",
      op: "add",
      channel_folder: {
        id,
        name: "Evented",
        description: "About **events**",
        rendered_description: "<p>About <strong>events</strong></p>",
        order: expect.any(Number),
        creator_id: admin.userId,
        date_created: expect.any(Number),
        is_archived: false,
      },
    });
    // Acknowledge it (the queue's first event, id 0): later reads start after it.
    await ok(member.get("/events", { queue_id: q.queue_id, last_event_id: 0, dont_block: true }));

    await ok(admin.patch(`/channel_folders/${id}`, { name: "Evented 2", description: "New *text*" }));
    await ok(admin.patch(`/channel_folders/${id}`, { is_archived: true }));
    await ok(admin.patch(`/channel_folders/${id}`, { is_archived: false }));
    // Nothing changes: no event.
    await ok(admin.patch(`/channel_folders/${id}`, { name: "Evented 2", is_archived: false }));
    const order = (await folders(admin, { include_archived: true })).map((f) => f.id).reverse();
    await ok(admin.patch("/channel_folders", { order }));
    expect(await pending(member, q.queue_id)).toEqual([
      { type: "channel_folder", op: "update", channel_folder_id: id, data: { name: "Evented 2" } },
      { type: "channel_folder", op: "update", channel_folder_id: id, data: { description: "New *text*", rendered_description: "<p>New <em>text</em></p>" } },
      { type: "channel_folder", op: "update", channel_folder_id: id, data: { is_archived: true } },
      { type: "channel_folder", op: "update", channel_folder_id: id, data: { is_archived: false } },
      { type: "channel_folder", op: "reorder", order },
    ]);
    // Guests hear of them too, as in Zulip.
    expect((await pending(guest, gq.queue_id)).length).toBe(6);
  });

  test("refused changes emit nothing", async () => {
    const q = await ok(admin.post("/register", { event_types: ["channel_folder"] }));
    await expectError(member.post("/channel_folders/create", { name: "Nope" }), 400, "UNAUTHORIZED_PRINCIPAL", "Must be an organization administrator");
    await expectError(admin.patch("/channel_folders", { order: [] }), 400, "BAD_REQUEST", "Invalid order mapping");
    await expectError(admin.patch("/channel_folders/999999", { is_archived: true }), 400, "BAD_REQUEST", "Invalid channel folder ID");
    expect(await pending(admin, q.queue_id)).toEqual([]);
  });

  test("register's channel_folders lists every folder in order, archived ones included", async () => {
    const archived = await create(admin, "Register archived");
    await ok(admin.patch(`/channel_folders/${archived}`, { is_archived: true }));
    const r = await ok(member.post("/register", { fetch_event_types: ["channel_folders"] }));
    expect(r.channel_folders).toEqual(await folders(member, { include_archived: true }));
    expect(r.channel_folders.find((f: any) => f.id === archived)).toMatchObject({ is_archived: true });
    expect(r.channel_folders.map((f: any) => f.order)).toEqual([...r.channel_folders.map((f: any) => f.order)].sort((x: number, y: number) => x - y));
  });

  test("spectators see only folders holding a web-public channel", async () => {
    const g = await startServer();
    try {
      await ok(g.owner.patch("/realm", { enable_spectator_access: true }));
      const open = (await ok(g.owner.post("/channel_folders/create", { name: "Open" }))).channel_folder_id;
      const closed = (await ok(g.owner.post("/channel_folders/create", { name: "Closed" }))).channel_folder_id;
      await ok(g.owner.post("/channels/create", { name: "web", subscribers: [g.owner.userId], is_web_public: true, folder_id: open }));
      await ok(g.owner.post("/channels/create", { name: "members", subscribers: [g.owner.userId], folder_id: closed }));
      const r = await ok(g.anon.post("/register", { fetch_event_types: ["channel_folders"] }));
      expect(r.channel_folders.map((f: any) => f.id)).toEqual([open]);
    } finally {
      await g.stop();
    }
  });
});

describe("channels in folders", () => {
  test("creating a channel checks folder_id: an unknown or archived folder is refused", async () => {
    const folder = await create(admin, "Creation");
    const gone = await create(admin, "Creation archived");
    await ok(admin.patch(`/channel_folders/${gone}`, { is_archived: true }));

    const { id } = await ok(member.post("/channels/create", { name: "in-folder", subscribers: [member.userId], folder_id: folder }));
    expect((await ok(member.get(`/streams/${id}`))).stream.folder_id).toBe(folder);
    const { id: loose } = await ok(member.post("/channels/create", { name: "no-folder", subscribers: [member.userId], folder_id: null }));
    expect((await ok(member.get(`/streams/${loose}`))).stream.folder_id).toBeNull();

    await expectError(
      member.post("/channels/create", { name: "bad-folder", subscribers: [member.userId], folder_id: 999999 }),
      400,
      "BAD_REQUEST",
      "Invalid channel folder ID",
    );
    await expectError(
      member.post("/channels/create", { name: "bad-folder", subscribers: [member.userId], folder_id: gone }),
      400,
      "BAD_REQUEST",
      "Invalid channel folder ID",
    );
    await expectError(
      member.post("/channels/create", { name: "bad-folder", subscribers: [member.userId], folder_id: "x" }),
      400,
      "BAD_REQUEST",
      "folder_id is not valid JSON",
    );

    await ok(member.post("/users/me/subscriptions", { subscriptions: [{ name: "sub-folder" }], folder_id: folder }));
    expect((await ok(member.get(`/streams/${(await ok(member.get("/get_stream_id", { stream: "sub-folder" }))).stream_id}`))).stream.folder_id).toBe(folder);
    await expectError(
      member.post("/users/me/subscriptions", { subscriptions: [{ name: "sub-bad" }], folder_id: gone }),
      400,
      "BAD_REQUEST",
      "Invalid channel folder ID",
    );
    await expectError(
      member.post("/users/me/subscriptions", { subscriptions: [{ name: "sub-bad" }], folder_id: 999999 }),
      400,
      "BAD_REQUEST",
      "Invalid channel folder ID",
    );
    // Nothing was created by the refused requests.
    await expectError(member.get("/get_stream_id", { stream: "bad-folder" }), 400, "BAD_REQUEST", "Invalid channel name 'bad-folder'");
    await expectError(member.get("/get_stream_id", { stream: "sub-bad" }), 400, "BAD_REQUEST", "Invalid channel name 'sub-bad'");
  });

  test("PATCH /streams moves a channel into a folder, and out of it with null", async () => {
    const a = await create(admin, "Move A");
    const b = await create(admin, "Move B");
    const gone = await create(admin, "Move archived");
    await ok(admin.patch(`/channel_folders/${gone}`, { is_archived: true }));
    const { id } = await ok(member.post("/channels/create", { name: "mover", subscribers: [member.userId], folder_id: a }));
    const q = await ok(member.post("/register", { event_types: ["stream"] }));

    await ok(member.patch(`/streams/${id}`, { folder_id: b }));
    expect((await ok(member.get(`/streams/${id}`))).stream.folder_id).toBe(b);
    await expectError(member.patch(`/streams/${id}`, { folder_id: 999999 }), 400, "BAD_REQUEST", "Invalid channel folder ID");
    await expectError(member.patch(`/streams/${id}`, { folder_id: gone }), 400, "BAD_REQUEST", "Invalid channel folder ID");
    expect((await ok(member.get(`/streams/${id}`))).stream.folder_id).toBe(b);
    await ok(member.patch(`/streams/${id}`, { folder_id: null }));
    expect((await ok(member.get(`/streams/${id}`))).stream.folder_id).toBeNull();

    expect(await pending(member, q.queue_id)).toEqual([
      { type: "stream", op: "update", stream_id: id, name: "mover", property: "folder_id", value: b },
      { type: "stream", op: "update", stream_id: id, name: "mover", property: "folder_id", value: null },
    ]);
    // Only those who administer the channel move it.
    const other = await s.newUser();
    await expectError(other.patch(`/streams/${id}`, { folder_id: a }), 400, "BAD_REQUEST", "Insufficient permission");
  });

  test("a folder of another organization is not a folder here", async () => {
    const g = await startServer({ env: { CONFAB_EXTERNAL_URL: "http://confab.test" } });
    try {
      const host = { headers: { Host: `acme.confab.test:${new URL(g.url).port}` } };
      const acme = await createRealm(g.app, { stringId: "acme", name: "Acme", ownerEmail: "boss@acme.test", ownerName: "Boss", ownerPassword: "acme-secret" });
      const boss = g.client("boss@acme.test", acme.owner.apiKey, acme.owner.id);
      const ours = (await ok(g.owner.post("/channel_folders/create", { name: "Ours" }))).channel_folder_id;
      expect((await ok(boss.get("/channel_folders", {}, host))).channel_folders).toEqual([]);
      await expectError(
        boss.post("/channels/create", { name: "theirs", subscribers: [], folder_id: ours }, host),
        400,
        "BAD_REQUEST",
        "Invalid channel folder ID",
      );
      await expectError(boss.patch(`/channel_folders/${ours}`, { name: "Taken over" }, host), 400, "BAD_REQUEST", "Invalid channel folder ID");
      // Names are per organization.
      await ok(boss.post("/channel_folders/create", { name: "Ours" }, host));
    } finally {
      await g.stop();
    }
  });
});
