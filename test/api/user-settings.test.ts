import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { expectError, ok, type Client } from "../helpers/client";
import { drain } from "../helpers/events";
import { startServer, type TestServer } from "../helpers/server";

let s: TestServer;
let admin: Client;
let member: Client;

beforeAll(async () => {
  s = await startServer();
  admin = await s.newUser({ role: 200 });
  member = await s.newUser({ name: "Sam Settings", password: "correct horse" });
});
afterAll(() => s.stop());

describe("PATCH /settings", () => {
  test("each changed setting is stored, shown by register and announced to the user's clients", async () => {
    const q = await ok(member.post("/register", { event_types: ["user_settings"] }));
    const r = await ok(
      member.patch("/settings", { color_scheme: 2, web_home_view: "recent_topics", enter_sends: true, web_channel_default_view: 3, no_such: 1 }),
    );
    expect(r.ignored_parameters_unsupported).toEqual(["no_such"]);
    expect(await drain(member, q)).toEqual([
      { type: "user_settings", op: "update", property: "web_channel_default_view", value: 3, id: 0 },
      { type: "user_settings", op: "update", property: "color_scheme", value: 2, id: 1 },
      { type: "user_settings", op: "update", property: "web_home_view", value: "recent", id: 2 },
      { type: "user_settings", op: "update", property: "enter_sends", value: true, id: 3 },
    ]);
    const st = (await ok(member.post("/register", { fetch_event_types: ["user_settings"] }))).user_settings;
    expect(st).toMatchObject({ color_scheme: 2, web_home_view: "recent", enter_sends: true, web_channel_default_view: 3, receives_typing_notifications: true });
    expect(st.emojiset_choices.map((e: any) => e.key)).toContain("google");
  });

  test("enumerated values and types are checked", async () => {
    await expectError(member.patch("/settings", { color_scheme: 7 }), 400, "BAD_REQUEST", "Invalid color_scheme");
    await expectError(member.patch("/settings", { emojiset: "comic" }), 400, "BAD_REQUEST", "Invalid emojiset");
    await expectError(
      member.patch("/settings", { email_notifications_batching_period_seconds: 0 }),
      400,
      "BAD_REQUEST",
      "Invalid email batching period: 0 seconds",
    );
    await expectError(member.patch("/settings", { enter_sends: "maybe" }), 400, "BAD_REQUEST", "enter_sends is not valid JSON");
    await expectError(member.patch("/settings", { timezone: "Mars/Olympus" }), 400, "BAD_REQUEST", "Not a recognized time zone");
    await ok(member.patch("/settings", { timezone: "Europe/Paris" }));
    const q = await ok(member.post("/register", { event_types: ["user_settings"] }));
    await ok(member.patch("/settings", { default_language: "de" }));
    expect((await drain(member, q))[0]).toMatchObject({ property: "default_language", value: "de", language_name: "German" });
    expect((await ok(member.post("/register", { fetch_event_types: ["user_settings"] }))).user_settings.timezone).toBe("Europe/Paris");
  });

  test("full name change reaches the realm; a password change needs the old one", async () => {
    const q = await ok(admin.post("/register", { event_types: ["realm_user"] }));
    await ok(member.patch("/settings", { full_name: "Samantha" }));
    expect(await drain(admin, q)).toEqual([{ type: "realm_user", op: "update", person: { user_id: member.userId, full_name: "Samantha" }, id: 0 }]);
    await expectError(member.patch("/settings", { old_password: "wrong", new_password: "new secret" }), 400, "BAD_REQUEST", "Wrong password!");
    await ok(member.patch("/settings", { old_password: "correct horse", new_password: "battery staple" }));
    await ok(s.anon.post("/fetch_api_key", { username: member.email, password: "battery staple" }));
  });
});

describe("PATCH /realm/user_settings_defaults", () => {
  test("administrators only; new users start with the defaults; existing users keep theirs", async () => {
    await expectError(
      member.patch("/realm/user_settings_defaults", { left_side_userlist: true }),
      400,
      "UNAUTHORIZED_PRINCIPAL",
      "Must be an organization administrator",
    );
    await expectError(admin.patch("/realm/user_settings_defaults", { user_list_style: 9 }), 400, "BAD_REQUEST", "Invalid user_list_style");
    const q = await ok(member.post("/register", { event_types: ["realm_user_settings_defaults"] }));
    const r = await ok(admin.patch("/realm/user_settings_defaults", { left_side_userlist: true, twenty_four_hour_time: true, timezone: "UTC" }));
    expect(r.ignored_parameters_unsupported).toEqual(["timezone"]);
    expect(await drain(member, q)).toEqual([
      { type: "realm_user_settings_defaults", op: "update", property: "twenty_four_hour_time", value: true, id: 0 },
      { type: "realm_user_settings_defaults", op: "update", property: "left_side_userlist", value: true, id: 1 },
    ]);
    const defaults = (await ok(member.post("/register", { fetch_event_types: ["realm_user_settings_defaults"] }))).realm_user_settings_defaults;
    expect(defaults).toMatchObject({ left_side_userlist: true, twenty_four_hour_time: true });
    expect((await ok(member.post("/register", { fetch_event_types: ["user_settings"] }))).user_settings.left_side_userlist).toBe(false);
    const newcomer = await s.newUser();
    expect((await ok(newcomer.post("/register", { fetch_event_types: ["user_settings"] }))).user_settings).toMatchObject({
      left_side_userlist: true,
      twenty_four_hour_time: true,
    });
  });
});
