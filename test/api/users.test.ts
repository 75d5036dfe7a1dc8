import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { expectError, ok, type Client } from "../helpers/client";
import { drain } from "../helpers/events";
import { startServer, type TestServer } from "../helpers/server";

let s: TestServer;
let admin: Client;
let member: Client;

beforeAll(async () => {
  s = await startServer();
  admin = await s.newUser({ role: 200, name: "Ada Admin" });
  member = await s.newUser({ name: "Mia Member" });
});
afterAll(() => s.stop());

describe("reading users", () => {
  test("GET /users, /users/{id}, /users/{email}; client_gravatar hides gravatar URLs", async () => {
    const all = (await ok(member.get("/users", { client_gravatar: false }))).members;
    expect(all.map((u: any) => u.user_id)).toEqual(expect.arrayContaining([s.owner.userId, admin.userId, member.userId]));
    expect(all.every((u: any) => typeof u.avatar_url === "string")).toBe(true);
    expect((await ok(member.get("/users"))).members.every((u: any) => u.avatar_url === null)).toBe(true);
    expect((await ok(member.get(`/users/${admin.userId}`))).user).toMatchObject({ user_id: admin.userId, role: 200, is_admin: true });
    expect((await ok(member.get(`/users/${encodeURIComponent(admin.email!)}`))).user.user_id).toBe(admin.userId);
    await expectError(member.get("/users/999999"), 400, "BAD_REQUEST", "No such user");
  });
});

describe("creating and changing users", () => {
  test("POST /users: administrators only, with Zulip's errors", async () => {
    await expectError(
      member.post("/users", { email: "x@example.com", password: "secret123", full_name: "X" }),
      400,
      "UNAUTHORIZED_PRINCIPAL",
      "Must be an organization administrator",
    );
    await expectError(
      admin.post("/users", { email: "not-an-email", password: "secret123", full_name: "X" }),
      400,
      "BAD_REQUEST",
      "Invalid email 'not-an-email'",
    );
    const { id: lobby } = await ok(s.owner.post("/channels/create", { name: "lobby", subscribers: [s.owner.userId], is_default_stream: true }));
    const { user_id } = await ok(admin.post("/users", { email: "newbie@example.com", password: "secret123", full_name: "New Bie" }));
    const newbie = s.client(
      "newbie@example.com",
      (await ok(s.anon.post("/fetch_api_key", { username: "newbie@example.com", password: "secret123" }))).api_key,
      user_id,
    );
    expect((await ok(newbie.get("/users/me/subscriptions"))).subscriptions.map((x: any) => x.stream_id)).toEqual([lobby]);
    expect((await ok(member.get(`/users/${user_id}`))).user).toMatchObject({ full_name: "New Bie", role: 400, is_active: true });
    await expectError(
      admin.post("/users", { email: "NEWBIE@example.com", password: "secret123", full_name: "Dup" }),
      400,
      "BAD_REQUEST",
      "Email 'NEWBIE@example.com' already in use",
    );
    await ok(s.anon.post("/fetch_api_key", { username: "newbie@example.com", password: "secret123" }));
  });

  test("PATCH /users/{id}: roles follow Zulip's rules and sync the role groups", async () => {
    const target = await s.newUser({ name: "Rolf" });
    await expectError(member.patch(`/users/${target.userId}`, { full_name: "Hacked" }), 400, "BAD_REQUEST", "Insufficient permission");
    await expectError(admin.patch(`/users/${target.userId}`, { role: 100 }), 400, "UNAUTHORIZED_PRINCIPAL", "Must be an organization owner");
    await expectError(admin.patch(`/users/${target.userId}`, { role: 250 }), 400, "BAD_REQUEST", "Invalid role");
    await expectError(admin.patch(`/users/${s.owner.userId}`, { role: 400 }), 400, "UNAUTHORIZED_PRINCIPAL", "Must be an organization owner");
    await expectError(
      s.owner.patch(`/users/${s.owner.userId}`, { role: 200 }),
      400,
      "BAD_REQUEST",
      "The owner permission cannot be removed from the only organization owner.",
    );
    const q = await ok(member.post("/register", { event_types: ["realm_user", "user_group"] }));
    await ok(admin.patch(`/users/${target.userId}`, { role: 300, full_name: "Rolf Moderator" }));
    const events = await drain(member, q);
    expect(events.filter((e: any) => e.type === "realm_user").map((e: any) => e.person)).toEqual([
      { user_id: target.userId, full_name: "Rolf Moderator" },
      { user_id: target.userId, role: 300 },
    ]);
    const { user_groups } = await ok(member.get("/user_groups"));
    const mods = user_groups.find((g: any) => g.name === "role:moderators");
    const members = user_groups.find((g: any) => g.name === "role:members");
    expect(mods.members).toContain(target.userId);
    expect(members.members).not.toContain(target.userId);
    expect(events.filter((e: any) => e.type === "user_group").map((e: any) => [e.op, e.group_id])).toEqual(
      expect.arrayContaining([
        ["add_members", mods.id],
        ["remove_members", members.id],
      ]),
    );
    // The owner makes a second owner, who may then be demoted again.
    await ok(s.owner.patch(`/users/${target.userId}`, { role: 100 }));
    await ok(s.owner.patch(`/users/${target.userId}`, { role: 400 }));
  });
});

describe("deactivation", () => {
  test("administrators deactivate and reactivate; owners only by owners; the last owner stays", async () => {
    const target = await s.newUser({ name: "Dee" });
    await expectError(member.delete(`/users/${target.userId}`), 400, "BAD_REQUEST", "Insufficient permission");
    await expectError(admin.delete(`/users/${s.owner.userId}`), 400, "UNAUTHORIZED_PRINCIPAL", "Must be an organization owner");
    // Zulip's file describes entity and is_last_owner for DELETE /users/me only: not validated here.
    await expectError(
      s.owner.delete(`/users/${s.owner.userId}`, {}, { unchecked: true }),
      400,
      "CANNOT_DEACTIVATE_LAST_USER",
      "Cannot deactivate the only organization owner",
    );
    const q = await ok(member.post("/register", { event_types: ["realm_user"] }));
    await ok(admin.delete(`/users/${target.userId}`));
    await expectError(target.get("/users/me"), 401, "USER_DEACTIVATED", "Account is deactivated");
    await expectError(admin.delete(`/users/${target.userId}`), 400, "BAD_REQUEST", "User is deactivated");
    await ok(admin.post(`/users/${target.userId}/reactivate`));
    await expectError(admin.post(`/users/${target.userId}/reactivate`), 400, "BAD_REQUEST", "User is already active");
    expect((await drain(member, q)).map((e: any) => e.person)).toEqual([
      { user_id: target.userId, is_active: false },
      { user_id: target.userId, is_active: true },
    ]);
    await ok(target.get("/users/me"));
  });

  test("DELETE /users/me deactivates one's own account, not the last owner's", async () => {
    const leaver = await s.newUser();
    await ok(leaver.delete("/users/me"));
    await expectError(leaver.get("/users/me"), 401, "USER_DEACTIVATED", "Account is deactivated");
    await expectError(s.owner.delete("/users/me"), 400, "CANNOT_DEACTIVATE_LAST_USER", "Cannot deactivate the only organization owner");
  });
});

describe("custom profile fields", () => {
  test("administrators add and order fields; values set through PATCH /users/{id} reach the realm", async () => {
    await expectError(
      member.post("/realm/profile_fields", { name: "Team", field_type: 1 }),
      400,
      "UNAUTHORIZED_PRINCIPAL",
      "Must be an organization administrator",
    );
    await expectError(admin.post("/realm/profile_fields", { name: "Bad", field_type: 42 }), 400, "BAD_REQUEST", "Invalid field type.");
    await expectError(
      admin.post("/realm/profile_fields", { name: "Pick", field_type: 3, field_data: {} }),
      400,
      "BAD_REQUEST",
      "Field must have at least one choice.",
    );
    const q = await ok(member.post("/register", { event_types: ["custom_profile_fields", "realm_user"] }));
    const { id: team } = await ok(admin.post("/realm/profile_fields", { name: "Team", hint: "Your team", field_type: 1 }));
    const { id: shirt } = await ok(
      admin.post("/realm/profile_fields", { name: "Shirt", field_type: 3, field_data: { s: { text: "Small", order: "1" }, l: { text: "Large", order: "2" } } }),
    );
    await expectError(admin.post("/realm/profile_fields", { name: "Team", field_type: 1 }), 400, "BAD_REQUEST", "A field with that label already exists.");
    await ok(admin.patch("/realm/profile_fields", { order: [shirt, team] }));
    await expectError(admin.patch("/realm/profile_fields", { order: [shirt] }), 400, "BAD_REQUEST", "Invalid order mapping.");
    const fields = (await ok(member.get("/realm/profile_fields"))).custom_fields;
    expect(fields.map((f: any) => [f.id, f.order])).toEqual([
      [shirt, 1],
      [team, 2],
    ]);
    await expectError(
      admin.patch(`/users/${member.userId}`, { profile_data: [{ id: shirt, value: "xl" }] }),
      400,
      "BAD_REQUEST",
      "'xl' is not a valid choice for 'Shirt'.",
    );
    await ok(
      admin.patch(`/users/${member.userId}`, {
        profile_data: [
          { id: team, value: "Platform" },
          { id: shirt, value: "l" },
        ],
      }),
    );
    const me = (await ok(member.get(`/users/${member.userId}`, { include_custom_profile_fields: true }))).user;
    expect(me.profile_data).toEqual({ [team]: { value: "Platform" }, [shirt]: { value: "l" } });
    const events = await drain(member, q);
    expect(events.filter((e: any) => e.type === "custom_profile_fields").length).toBe(3);
    expect(events.filter((e: any) => e.type === "realm_user").map((e: any) => e.person.custom_profile_field)).toEqual([
      { id: team, value: "Platform" },
      { id: shirt, value: "l" },
    ]);
    const state = await ok(member.post("/register", { fetch_event_types: ["custom_profile_fields", "realm_user"] }));
    expect(state.custom_profile_field_types.SELECT).toEqual({ id: 3, name: "List of options" });
    expect(state.realm_users.find((u: any) => u.user_id === member.userId).profile_data[team]).toEqual({ value: "Platform" });
  });
});
