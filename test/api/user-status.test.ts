import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { expectError, ok, type Client } from "../helpers/client";
import { drain } from "../helpers/events";
import { startServer, type TestServer } from "../helpers/server";

let s: TestServer;
let ann: Client;
let bob: Client;

beforeAll(async () => {
  s = await startServer();
  ann = await s.newUser({ name: "Ann" });
  bob = await s.newUser({ name: "Bob" });
});
afterAll(() => s.stop());

describe("user status, alert words, muted users", () => {
  test("status: set in parts, read back, announced, shown by register; Zulip's errors", async () => {
    await expectError(ann.post("/users/me/status", {}), 400, "BAD_REQUEST", "Client did not pass any new values.");
    await expectError(ann.post("/users/me/status", { status_text: "x".repeat(61) }), 400, "BAD_REQUEST", "status_text is too long (limit: 60 characters)");
    await expectError(
      ann.post("/users/me/status", { emoji_code: "1f697" }),
      400,
      "BAD_REQUEST",
      "Client must pass emoji_name if they pass either emoji_code or reaction_type.",
    );
    await expectError(ann.post("/users/me/status", { emoji_name: "no_such_emoji_here" }), 400, "BAD_REQUEST", "Emoji 'no_such_emoji_here' does not exist");
    const q = await ok(bob.post("/register", { event_types: ["user_status"] }));
    await ok(ann.post("/users/me/status", { status_text: "  On vacation ", emoji_name: "car" }));
    await ok(ann.post("/users/me/status", { away: true }));
    const { status } = await ok(bob.get(`/users/${ann.userId}/status`));
    expect(status).toEqual({ away: true, status_text: "On vacation", emoji_name: "car", emoji_code: "1f697", reaction_type: "unicode_emoji" });
    expect((await ok(ann.get("/users/me/status", {}, { unchecked: true }))).status).toEqual(status);
    const ev = await drain(bob, q);
    expect(ev).toEqual([
      { type: "user_status", user_id: ann.userId, status_text: "On vacation", emoji_name: "car", emoji_code: "1f697", reaction_type: "unicode_emoji", id: 0 },
      { type: "user_status", user_id: ann.userId, away: true, id: 1 },
    ]);
    expect((await ok(bob.post("/register", { fetch_event_types: ["user_status"] }))).user_status[ann.userId!]).toEqual(status);
    await ok(ann.post("/users/me/status", { status_text: "", emoji_name: "", away: false }));
    expect((await ok(bob.get(`/users/${ann.userId}/status`))).status).toEqual({});
    await expectError(bob.post(`/users/${ann.userId}/status`, { status_text: "mine now" }, { unchecked: true }), 400, "BAD_REQUEST", "Insufficient permission");
  });

  test("alert words: added once whatever the case, removed, announced", async () => {
    const q = await ok(ann.post("/register", { event_types: ["alert_words"], fetch_event_types: ["alert_words"] }));
    expect(q.alert_words).toEqual([]);
    expect((await ok(ann.post("/users/me/alert_words", { alert_words: ["deploy", " Deploy ", "outage", ""] }))).alert_words).toEqual(["deploy", "outage"]);
    expect((await ok(ann.delete("/users/me/alert_words", { alert_words: ["OUTAGE"] }))).alert_words).toEqual(["deploy"]);
    expect((await ok(ann.get("/users/me/alert_words"))).alert_words).toEqual(["deploy"]);
    const ev = await drain(ann, q);
    expect(ev.map((e: any) => e.alert_words)).toEqual([["deploy", "outage"], ["deploy"]]);
    await expectError(ann.post("/users/me/alert_words", { alert_words: "deploy" }), 400, "BAD_REQUEST", "alert_words is not valid JSON");
  });

  test("muted users: mute, errors, unmute, register and events", async () => {
    await expectError(ann.post(`/users/me/muted_users/${ann.userId}`), 400, "BAD_REQUEST", "Cannot mute self");
    await expectError(ann.post("/users/me/muted_users/999999"), 400, "BAD_REQUEST", "No such user");
    const q = await ok(ann.post("/register", { event_types: ["muted_users"] }));
    await ok(ann.post(`/users/me/muted_users/${bob.userId}`));
    await expectError(ann.post(`/users/me/muted_users/${bob.userId}`), 400, "BAD_REQUEST", "User already muted");
    const muted = (await ok(ann.post("/register", { fetch_event_types: ["muted_users"] }))).muted_users;
    expect(muted).toEqual([{ id: bob.userId, timestamp: expect.any(Number) }]);
    await ok(ann.delete(`/users/me/muted_users/${bob.userId}`));
    await expectError(ann.delete(`/users/me/muted_users/${bob.userId}`), 400, "BAD_REQUEST", "User is not muted");
    const ev = await drain(ann, q);
    expect(ev.map((e: any) => e.muted_users.map((m: any) => m.id))).toEqual([[bob.userId], []]);
  });
});
