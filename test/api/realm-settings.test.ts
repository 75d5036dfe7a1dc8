import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { expectError, ok, type Client } from "../helpers/client";
import { drain } from "../helpers/events";
import { startServer, type TestServer } from "../helpers/server";

let s: TestServer;
let admin: Client;
let member: Client;
let sys: Record<string, number>;

beforeAll(async () => {
  s = await startServer();
  admin = await s.newUser({ role: 200, name: "Ada Admin" });
  member = await s.newUser({ name: "Mo Member" });
  const { user_groups } = await ok(s.owner.get("/user_groups"));
  sys = Object.fromEntries(user_groups.filter((g: any) => g.is_system_group).map((g: any) => [g.name, g.id]));
});
afterAll(() => s.stop());

const realmState = async (c: Client) => ok(c.post("/register", { fetch_event_types: ["realm"], event_types: ["realm"] }));

describe("the realm register state", () => {
  test("every setting is present as realm_<name>, group settings resolved to the realm's system groups", async () => {
    const r = await realmState(member);
    expect(r).toMatchObject({
      realm_name: "Confab",
      realm_invite_required: true,
      realm_waiting_period_threshold: 0,
      realm_message_content_edit_limit_seconds: 600,
      realm_topics_policy: "allow_empty_topic",
      realm_can_create_groups: sys["role:members"],
      realm_can_manage_all_groups: sys["role:owners"],
      realm_create_multiuse_invite_group: sys["role:administrators"],
      realm_can_create_web_public_channel_group: sys["role:owners"],
      max_message_length: 10000,
    });
  });
});

describe("PATCH /realm", () => {
  test("administrators only; owner-only settings need an owner", async () => {
    await expectError(member.patch("/realm", { name: "Mine" }), 400, "UNAUTHORIZED_PRINCIPAL", "Must be an organization administrator");
    await expectError(
      admin.patch("/realm", { can_create_groups: { new: sys["role:administrators"] } }),
      400,
      "UNAUTHORIZED_PRINCIPAL",
      "Must be an organization owner",
    );
    await expectError(admin.patch("/realm", { invite_required: false }), 400, "UNAUTHORIZED_PRINCIPAL", "Must be an organization owner");
  });

  test("changes are validated against the table and announced; unknown parameters are reported", async () => {
    await expectError(admin.patch("/realm", { video_chat_provider: 99 }), 400, "BAD_REQUEST", "Invalid video_chat_provider");
    await expectError(admin.patch("/realm", { topics_policy: "nope" }), 400, "BAD_REQUEST", "Invalid topics_policy");
    await expectError(admin.patch("/realm", { waiting_period_threshold: "x" }), 400, "BAD_REQUEST", "waiting_period_threshold is not valid JSON");
    await expectError(admin.patch("/realm", { name: "x".repeat(41) }), 400, "BAD_REQUEST", "name is too long (limit: 40 characters)");
    const q = await realmState(member);
    const r = await ok(admin.patch("/realm", { name: "Renamed", message_content_edit_limit_seconds: "unlimited", allow_message_editing: false, bogus: 1 }));
    expect(r.ignored_parameters_unsupported).toEqual(["bogus"]);
    expect(await drain(member, q)).toEqual([
      { type: "realm", op: "update", property: "name", value: "Renamed", id: 0 },
      { type: "realm", op: "update_dict", property: "default", data: { allow_message_editing: false, message_content_edit_limit_seconds: null }, id: 1 },
    ]);
    expect(await realmState(member)).toMatchObject({
      realm_name: "Renamed",
      realm_allow_message_editing: false,
      realm_message_content_edit_limit_seconds: null,
    });
    // Setting a value back to its default stores nothing, and the same value again announces nothing.
    await ok(admin.patch("/realm", { allow_message_editing: true }));
    const q2 = await realmState(member);
    await ok(admin.patch("/realm", { allow_message_editing: true }));
    expect(await drain(member, q2)).toEqual([]);
  });

  test("group settings: both forms, the setting's allowed groups, and the permission engine follows", async () => {
    await expectError(
      s.owner.patch("/realm", { can_create_web_public_channel_group: { new: sys["role:members"] } }),
      400,
      "BAD_REQUEST",
      "'can_create_web_public_channel_group' setting cannot be set to 'role:members' group.",
    );
    await expectError(
      s.owner.patch("/realm", { can_manage_all_groups: { new: sys["role:nobody"] } }),
      400,
      "BAD_REQUEST",
      "'can_manage_all_groups' setting cannot be set to 'role:nobody' group.",
    );
    await expectError(s.owner.patch("/realm", { can_create_groups: { new: sys["role:admins"] ?? 999999 } }), 400, "BAD_REQUEST", "Invalid user group");
    const q = await realmState(member);
    await ok(
      s.owner.patch("/realm", {
        can_create_groups: { new: { direct_members: [member.userId], direct_subgroups: [sys["role:administrators"]] }, old: sys["role:members"] },
      }),
    );
    expect(await drain(member, q)).toEqual([
      {
        type: "realm",
        op: "update_dict",
        property: "default",
        data: { can_create_groups: { direct_members: [member.userId], direct_subgroups: [sys["role:administrators"]] } },
        id: 0,
      },
    ]);
    const other = await s.newUser();
    await ok(member.post("/user_groups/create", { name: "by-member", description: "", members: [] }));
    await expectError(other.post("/user_groups/create", { name: "by-other", description: "", members: [] }), 400, "BAD_REQUEST", "Insufficient permission");
    await ok(s.owner.patch("/realm", { can_create_groups: { new: sys["role:members"] } }));
    await ok(other.post("/user_groups/create", { name: "by-other", description: "", members: [] }));
  });
});

describe("settings naming a channel", () => {
  test("an existing channel of the realm, or -1 for none", async () => {
    const { id } = await ok(s.owner.post("/channels/create", { name: "announcements", subscribers: [s.owner.userId] }));
    await expectError(admin.patch("/realm", { new_stream_announcements_stream_id: 999999 }), 400, "BAD_REQUEST", "Invalid channel ID");
    await ok(admin.patch("/realm", { new_stream_announcements_stream_id: id }));
    expect((await realmState(member)).realm_new_stream_announcements_stream_id).toBe(id);
    await ok(admin.patch("/realm", { new_stream_announcements_stream_id: -1 }));
    expect((await realmState(member)).realm_new_stream_announcements_stream_id).toBe(-1);
  });
});

describe("realm domains", () => {
  test("owners add, change and remove; administrators may not change; events and errors", async () => {
    const q = await ok(member.post("/register", { event_types: ["realm_domains"], fetch_event_types: ["realm_domains"] }));
    expect(q.realm_domains).toEqual([]);
    await expectError(
      admin.post("/realm/domains", { domain: "example.org", allow_subdomains: false }),
      400,
      "UNAUTHORIZED_PRINCIPAL",
      "Must be an organization owner",
    );
    await expectError(
      s.owner.post("/realm/domains", { domain: "nodot", allow_subdomains: false }),
      400,
      "BAD_REQUEST",
      "Invalid domain: Domain must have at least one dot (.)",
    );
    await ok(s.owner.post("/realm/domains", { domain: "Example.org", allow_subdomains: false }));
    await expectError(
      s.owner.post("/realm/domains", { domain: "example.org", allow_subdomains: true }),
      400,
      "BAD_REQUEST",
      "The domain example.org is already a part of your organization.",
    );
    await expectError(admin.patch("/realm/domains/example.org", { allow_subdomains: true }), 400, "UNAUTHORIZED_PRINCIPAL", "Must be an organization owner");
    await ok(s.owner.patch("/realm/domains/example.org", { allow_subdomains: true }));
    expect((await ok(member.get("/realm/domains"))).domains).toEqual([{ domain: "example.org", allow_subdomains: true }]);
    await ok(s.owner.delete("/realm/domains/example.org"));
    await expectError(s.owner.delete("/realm/domains/example.org"), 400, "BAD_REQUEST", "No entry found for domain example.org.");
    expect((await drain(member, q)).map((e: any) => e.op)).toEqual(["add", "change", "remove"]);
  });
});

const PNG = Uint8Array.from(Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==", "base64"));
const uploadIcon = (c: Client, files: [string, Uint8Array][]) =>
  c.post("/realm/icon", {}, { files: files.map(([name, bytes]) => new File([bytes], `${name}.png`, { type: "image/png" })) });

describe("the organization icon (POST and DELETE /realm/icon)", () => {
  test("an administrator uploads an icon: served without authentication, in register and /server_settings, announced; DELETE restores the default", async () => {
    const q = await realmState(member);
    expect([q.realm_icon_source, q.realm_icon_url]).toEqual(["G", `${s.url}/static/images/logo/confab-icon.png`]);
    const up = await ok(uploadIcon(admin, [["icon", PNG]]));
    expect(up.icon_url).toStartWith(`${s.url}/user_avatars/`);
    const img = await fetch(up.icon_url);
    expect([img.status, img.headers.get("content-type")]).toEqual([200, "image/png"]);
    expect(new Uint8Array(await img.arrayBuffer())).toEqual(PNG);
    const after = await realmState(member);
    expect([after.realm_icon_source, after.realm_icon_url]).toEqual(["U", up.icon_url]);
    expect((await ok(member.get("/server_settings"))).realm_icon).toBe(up.icon_url);
    // A second upload gets a new URL, so caches holding the first picture are bypassed.
    const again = await ok(uploadIcon(admin, [["icon", PNG]]));
    expect(again.icon_url).not.toBe(up.icon_url);
    const del = await ok(admin.delete("/realm/icon"));
    expect(del.icon_url).toBe(`${s.url}/static/images/logo/confab-icon.png`);
    expect((await fetch(up.icon_url)).status).toBe(404);
    expect((await ok(admin.delete("/realm/icon"))).icon_url).toBe(del.icon_url);
    const events = await drain(member, q);
    expect(events.map((e: any) => [e.type, e.op, e.property, e.data.icon_source, e.data.icon_url])).toEqual([
      ["realm", "update_dict", "icon", "U", up.icon_url],
      ["realm", "update_dict", "icon", "U", again.icon_url],
      ["realm", "update_dict", "icon", "G", del.icon_url],
    ]);
  });

  test("members may not change it; one image of at most 5 MiB; a refused upload changes nothing", async () => {
    await expectError(uploadIcon(member, [["icon", PNG]]), 400, "UNAUTHORIZED_PRINCIPAL", "Must be an organization administrator");
    await expectError(member.delete("/realm/icon"), 400, "UNAUTHORIZED_PRINCIPAL", "Must be an organization administrator");
    await expectError(uploadIcon(admin, []), 400, "BAD_REQUEST", "You must upload exactly one icon.");
    await expectError(
      uploadIcon(admin, [
        ["a", PNG],
        ["b", PNG],
      ]),
      400,
      "BAD_REQUEST",
      "You must upload exactly one icon.",
    );
    await expectError(
      uploadIcon(admin, [["icon", new TextEncoder().encode("not an image")]]),
      400,
      "BAD_REQUEST",
      "Could not decode image; did you upload an image file?",
    );
    const big = new Uint8Array(5 * 1024 * 1024 + 1);
    big.set(PNG);
    await expectError(uploadIcon(admin, [["icon", big]]), 400, "BAD_REQUEST", "Uploaded file is larger than the allowed limit of 5 MiB");
    expect((await realmState(member)).realm_icon_source).toBe("G");
  });
});
