import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { ok } from "../helpers/client";
import { startServer, type TestServer } from "../helpers/server";

let s: TestServer;
beforeAll(async () => {
  s = await startServer();
});
afterAll(() => s.stop());

const roleGroup = async (name: string) => (await ok(s.owner.get("/user_groups"))).user_groups.find((g: any) => g.name === name).id;

describe("guests limited by can_access_all_users_group", () => {
  test("see stand-ins for people they share nothing with, or (user_list_incomplete) nobody", async () => {
    const guest = await s.newUser({ role: 600, name: "Gus Guest" });
    const mate = await s.newUser({ name: "Channel Mate" });
    const stranger = await s.newUser({ name: "Total Stranger" });
    await ok(s.owner.post("/channels/create", { name: "guest-room", subscribers: [guest.userId, mate.userId] }));

    // Everyone may see everyone by default.
    const open = await ok(guest.post("/register", { fetch_event_types: ["realm_user"] }));
    expect(open.realm_users.find((u: any) => u.user_id === stranger.userId).full_name).toBe("Total Stranger");

    await ok(s.owner.patch("/realm", { can_access_all_users_group: JSON.stringify({ new: await roleGroup("role:members") }) }));
    const full = await ok(guest.post("/register", { fetch_event_types: ["realm_user"] }));
    const byId = new Map(full.realm_users.map((u: any) => [u.user_id, u]));
    expect((byId.get(mate.userId) as any).full_name).toBe("Channel Mate");
    expect(byId.get(stranger.userId)).toMatchObject({ full_name: "Unknown user", email: `user${stranger.userId}@127.0.0.1`, delivery_email: null });
    expect((byId.get(guest.userId) as any).full_name).toBe("Gus Guest");

    const partial = await ok(guest.post("/register", { fetch_event_types: ["realm_user"], client_capabilities: { user_list_incomplete: true } }));
    const ids = partial.realm_users.map((u: any) => u.user_id);
    expect(ids).toContain(mate.userId);
    expect(ids).not.toContain(stranger.userId);

    // A direct message makes the stranger known.
    await ok(stranger.post("/messages", { type: "direct", to: [guest.userId], content: "hello there" }));
    const after = await ok(guest.post("/register", { fetch_event_types: ["realm_user"], client_capabilities: { user_list_incomplete: true } }));
    expect(after.realm_users.map((u: any) => u.user_id)).toContain(stranger.userId);

    // A new user reaches limited guests as a stand-in, or (user_list_incomplete) not at all.
    const qFull = await ok(guest.post("/register", { event_types: ["realm_user"] }));
    const qPartial = await ok(guest.post("/register", { event_types: ["realm_user"], client_capabilities: { user_list_incomplete: true } }));
    const qMember = await ok(mate.post("/register", { event_types: ["realm_user"] }));
    const newcomer = await s.newUser({ name: "New Comer" });
    const evs = async (c: any, q: any) => (await ok(c.get("/events", { queue_id: q.queue_id, dont_block: true }))).events.filter((e: any) => e.op === "add");
    expect((await evs(guest, qFull)).map((e: any) => e.person)).toEqual([expect.objectContaining({ user_id: newcomer.userId, full_name: "Unknown user" })]);
    expect(await evs(guest, qPartial)).toEqual([]);
    expect((await evs(mate, qMember)).map((e: any) => e.person)).toEqual([expect.objectContaining({ user_id: newcomer.userId, full_name: "New Comer" })]);

    // Members are not limited.
    const member = await ok(mate.post("/register", { fetch_event_types: ["realm_user"], client_capabilities: { user_list_incomplete: true } }));
    expect(member.realm_users.length).toBe(full.realm_users.length + 1); // everyone, the newcomer included
  });
});

describe("user_avatar_url_field_optional", () => {
  test("avatar_url is left out for users not seen for a long time, kept for recently active ones", async () => {
    const active = await s.newUser();
    await ok(active.post("/users/me/presence", { status: "active" }));
    const idle = await s.newUser();
    const r = await ok(s.owner.post("/register", { fetch_event_types: ["realm_user"], client_capabilities: { user_avatar_url_field_optional: true } }));
    const byId = new Map(r.realm_users.map((u: any) => [u.user_id, u]));
    expect("avatar_url" in (byId.get(active.userId) as any)).toBe(true);
    expect("avatar_url" in (byId.get(idle.userId) as any)).toBe(false);
    const plain = await ok(s.owner.post("/register", { fetch_event_types: ["realm_user"] }));
    expect(plain.realm_users.every((u: any) => "avatar_url" in u)).toBe(true);
  });
});
