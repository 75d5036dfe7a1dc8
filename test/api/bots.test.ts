import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { expectError, ok, type Client } from "../helpers/client";
import { drain } from "../helpers/events";
import { startServer, type TestServer } from "../helpers/server";

let s: TestServer;
let admin: Client;
let ann: Client;
let bob: Client;

beforeAll(async () => {
  s = await startServer();
  admin = await s.newUser({ role: 200, name: "Ada Admin" });
  ann = await s.newUser({ name: "Ann" });
  bob = await s.newUser({ name: "Bob" });
});
afterAll(() => s.stop());

describe("bots", () => {
  test("creating the three kinds; the owner and administrators see them in realm_bot, with events", async () => {
    const q = await ok(ann.post("/register", { event_types: ["realm_bot"] }));
    const qb = await ok(bob.post("/register", { event_types: ["realm_bot"] }));
    const generic = await ok(ann.post("/bots", { full_name: "Helper", short_name: "helper" }));
    expect([typeof generic.user_id, typeof generic.api_key, generic.default_all_public_streams]).toEqual(["number", "string", false]);
    const hook = await ok(ann.post("/bots", { full_name: "Hook", short_name: "hook", bot_type: 2 }));
    const out = await ok(ann.post("/bots", { full_name: "Out", short_name: "out", bot_type: 3, payload_url: JSON.stringify("https://svc.example/hook") }));
    const bots = (await ok(ann.post("/register", { fetch_event_types: ["realm_bot"] }))).realm_bots;
    expect(bots.map((b: any) => [b.user_id, b.bot_type, b.owner_id])).toEqual([
      [generic.user_id, 1, ann.userId],
      [hook.user_id, 2, ann.userId],
      [out.user_id, 3, ann.userId],
    ]);
    expect(bots[2].services).toEqual([{ base_url: "https://svc.example/hook", token: expect.any(String), interface: 1 }]);
    expect(bots[0].email).toMatch(/^helper-bot@/);
    expect((await ok(bob.post("/register", { fetch_event_types: ["realm_bot"] }))).realm_bots).toEqual([]);
    expect((await ok(admin.post("/register", { fetch_event_types: ["realm_bot"] }))).realm_bots.length).toBe(3);
    expect((await drain(ann, q)).map((e: any) => [e.op, e.bot.user_id])).toEqual([
      ["add", generic.user_id],
      ["add", hook.user_id],
      ["add", out.user_id],
    ]);
    expect(await drain(bob, qb)).toEqual([]);
    expect((await ok(ann.get("/bots"))).bots.map((b: any) => b.username)).toEqual([bots[0].email, bots[1].email, bots[2].email]);
    // The bot works with its key and appears as a user.
    const botClient = s.client(bots[0].email, bots[0].api_key, generic.user_id);
    expect((await ok(botClient.get("/users/me"))).is_bot).toBe(true);
    expect((await ok(bob.get(`/users/${generic.user_id}`))).user).toMatchObject({ is_bot: true, bot_type: 1, bot_owner_id: ann.userId });
  });

  test("errors: names, types, duplicates, permission", async () => {
    await expectError(ann.post("/bots", { full_name: "X", short_name: "helper" }), 400, "BAD_REQUEST", "Username already in use");
    await expectError(ann.post("/bots", { full_name: "X", short_name: "  " }), 400, "BAD_REQUEST", "Bad name or username");
    await expectError(ann.post("/bots", { full_name: "X", short_name: "x9", bot_type: 7 }), 400, "BAD_REQUEST", "Invalid bot type");
    await expectError(ann.post("/bots", { full_name: "X", short_name: "x9", bot_type: 3 }), 400, "BAD_REQUEST", "payload_url is not a URL");
    const guest = await s.newUser({ role: 600 });
    await expectError(guest.post("/bots", { full_name: "G", short_name: "g" }), 400, "BAD_REQUEST", "Not allowed for guest users");
    const { user_groups } = await ok(s.owner.get("/user_groups"));
    const admins = user_groups.find((g: any) => g.name === "role:administrators").id;
    await ok(s.owner.patch("/realm", { can_create_bots_group: { new: admins } }));
    await expectError(bob.post("/bots", { full_name: "B", short_name: "b1" }), 400, "BAD_REQUEST", "Insufficient permission");
    await ok(bob.post("/bots", { full_name: "B", short_name: "b1", bot_type: 2 })); // write-only bots stay open to members
    await ok(s.owner.patch("/realm", { can_create_bots_group: { new: user_groups.find((g: any) => g.name === "role:members").id } }));
  });

  test("regenerating a bot's key: its owner or an administrator; `No such bot`", async () => {
    const { user_id, api_key } = await ok(ann.post("/bots", { full_name: "Keyed", short_name: "keyed" }));
    await expectError(bob.post(`/bots/${user_id}/api_key/regenerate`), 400, "BAD_REQUEST", "Insufficient permission");
    await expectError(ann.post("/bots/999999/api_key/regenerate"), 400, "BAD_REQUEST", "No such bot");
    await expectError(ann.post(`/bots/${bob.userId}/api_key/regenerate`), 400, "BAD_REQUEST", "No such bot");
    const first = await ok(ann.post(`/bots/${user_id}/api_key/regenerate`));
    expect(first.api_key).not.toBe(api_key);
    const second = await ok(admin.post(`/bots/${user_id}/api_key/regenerate`));
    const email = (await ok(ann.get(`/users/${user_id}`))).user.email;
    await expectError(s.client(email, first.api_key).get("/users/me"), 401, "INVALID_API_KEY", "Invalid API key");
    await ok(s.client(email, second.api_key).get("/users/me"));
  });

  test("PATCH changes name and owner; DELETE deactivates with a remove event; owner deactivation takes the bots", async () => {
    const { user_id } = await ok(ann.post("/bots", { full_name: "Movable", short_name: "movable" }));
    await expectError(bob.patch(`/bots/${user_id}`, { full_name: "Stolen" }), 400, "BAD_REQUEST", "Insufficient permission");
    await expectError(ann.patch(`/bots/${user_id}`, { bot_owner_id: 999999 }), 400, "BAD_REQUEST", "Failed to change owner, no such user");
    const qb = await ok(bob.post("/register", { event_types: ["realm_bot"] }));
    await ok(ann.patch(`/bots/${user_id}`, { full_name: "Moved", bot_owner_id: bob.userId }));
    expect((await ok(bob.get(`/users/${user_id}`))).user).toMatchObject({ full_name: "Moved", bot_owner_id: bob.userId });
    await ok(bob.delete(`/bots/${user_id}`));
    // Bob hears of the bot when it becomes his, of its new name, and of its deactivation.
    expect((await drain(bob, qb)).map((e: any) => [e.op, e.bot.user_id])).toEqual([
      ["add", user_id],
      ["update", user_id],
      ["remove", user_id],
    ]);
    expect((await ok(bob.get(`/users/${user_id}`))).user.is_active).toBe(false);
    const carl = await s.newUser();
    const { user_id: carlsBot } = await ok(carl.post("/bots", { full_name: "Carl's", short_name: "carls" }));
    await ok(admin.delete(`/users/${carl.userId}`));
    expect((await ok(bob.get(`/users/${carlsBot}`))).user.is_active).toBe(false);
  });
});

describe("devices", () => {
  test("register a client device, then remove it at logout (level 470)", async () => {
    const { device_id } = await ok(ann.post("/register_client_device", {}, { unchecked: true }));
    expect(typeof device_id).toBe("number");
    await expectError(bob.post("/remove_client_device", { device_id }, { unchecked: true }), 400, "BAD_REQUEST", "Invalid device ID");
    await ok(ann.post("/remove_client_device", { device_id }, { unchecked: true }));
    await expectError(ann.post("/remove_client_device", { device_id }, { unchecked: true }), 400, "BAD_REQUEST", "Invalid device ID");
    await expectError(ann.post("/remove_client_device", {}, { unchecked: true }), 400, "REQUEST_VARIABLE_MISSING", "Missing 'device_id' argument");
  });
});

const PNG = Uint8Array.from(Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==", "base64"));

/** Uploads through the test client, so the answer is checked against Zulip's schema like any other. */
async function upload(c: Client, files: [string, Uint8Array, string][]) {
  const res = await c.post("/users/me/avatar", {}, { files: files.map(([name, bytes, type]) => new File([bytes], `${name}.bin`, { type })) });
  return { status: res.$status, body: res as Record<string, any> };
}

describe("avatars", () => {
  test("upload an image: served under the data directory; realm_user event; gravatar again after DELETE, which is idempotent", async () => {
    const q = await ok(bob.post("/register", { event_types: ["realm_user"] }));
    const up = await upload(ann, [["file", PNG, "image/png"]]);
    expect(up.status).toBe(200);
    expect(up.body.avatar_url).toStartWith(`${s.url}/user_avatars/`);
    const img = await fetch(up.body.avatar_url);
    expect(img.headers.get("content-type")).toBe("image/png");
    expect(new Uint8Array(await img.arrayBuffer())).toEqual(PNG);
    const me = (await ok(bob.get(`/users/${ann.userId}`))).user;
    expect(me.avatar_url).toBe(up.body.avatar_url);
    const del = await ok(ann.delete("/users/me/avatar"));
    expect(del.avatar_url).toStartWith("https://secure.gravatar.com/avatar/");
    expect((await fetch(up.body.avatar_url)).status).toBe(404);
    expect((await ok(ann.delete("/users/me/avatar"))).avatar_url).toBe(del.avatar_url);
    const ev = await drain(bob, q);
    expect(ev.map((e: any) => e.person.avatar_source)).toEqual(["U", "G"]);
    expect(ev[1].person.avatar_version).toBe(ev[0].person.avatar_version + 1);
  });

  test("type, count and size are checked; changes refused for non-administrators where the realm disables them", async () => {
    expect((await upload(ann, [["file", new TextEncoder().encode("not an image"), "image/png"]])).body.msg).toBe(
      "Could not decode image; did you upload an image file?",
    );
    expect((await upload(ann, [])).body.msg).toBe("You must upload exactly one avatar.");
    expect(
      (
        await upload(ann, [
          ["a", PNG, "image/png"],
          ["b", PNG, "image/png"],
        ])
      ).body.msg,
    ).toBe("You must upload exactly one avatar.");
    const big = new Uint8Array(5 * 1024 * 1024 + 1);
    big.set(PNG);
    expect((await upload(ann, [["file", big, "image/png"]])).body.msg).toBe("Uploaded file is larger than the allowed limit of 5 MiB");
    await ok(admin.patch("/realm", { avatar_changes_disabled: true }));
    await expectError(ann.delete("/users/me/avatar"), 400, "BAD_REQUEST", "Avatar changes are disabled in this organization.");
    expect((await upload(ann, [["file", PNG, "image/png"]])).body.msg).toBe("Avatar changes are disabled in this organization.");
    await ok(admin.delete("/users/me/avatar"));
    expect((await upload(admin, [["file", PNG, "image/png"]])).status).toBe(200);
    await ok(admin.patch("/realm", { avatar_changes_disabled: false }));
  });

  test("client_gravatar: null avatar_url for gravatar users only", async () => {
    const users = (await ok(bob.get("/users", { client_gravatar: true }))).members;
    expect(users.find((u: any) => u.user_id === admin.userId).avatar_url).toStartWith(`${s.url}/user_avatars/`);
    expect(users.find((u: any) => u.user_id === bob.userId).avatar_url).toBeNull();
    const full = (await ok(bob.get("/users", { client_gravatar: false }))).members;
    expect(full.find((u: any) => u.user_id === bob.userId).avatar_url).toStartWith("https://secure.gravatar.com/avatar/");
  });
});
