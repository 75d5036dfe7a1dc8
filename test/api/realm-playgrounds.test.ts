// Code playgrounds (POST /realm/playgrounds, DELETE /realm/playgrounds/{id}): administrators only,
// checked as Zulip checks them, announced to the realm and in register's realm_playgrounds.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { expectError, ok, type Client } from "../helpers/client";
import { drain } from "../helpers/events";
import { startServer, type TestServer } from "../helpers/server";

let s: TestServer;
let member: Client;

beforeAll(async () => {
  s = await startServer();
  member = await s.newUser();
});
afterAll(() => s.stop());

describe("realm playgrounds", () => {
  test("add and remove, with realm_playgrounds events and register state", async () => {
    const q = await ok(member.post("/register", { event_types: ["realm_playgrounds"] }));
    expect(q.realm_playgrounds).toEqual([]);
    const python = { name: "Python playground", pygments_language: "Python", url_template: "https://python.example.com?code={code}" };
    const { id } = await ok(s.owner.post("/realm/playgrounds", python));
    const { id: rust } = await ok(
      s.owner.post("/realm/playgrounds", { name: "Rust", pygments_language: "Rust", url_template: "https://play.rust-lang.org/?code={code}" }),
    );
    const state = (await ok(member.post("/register", { fetch_event_types: ["realm_playgrounds"] }))).realm_playgrounds;
    expect(state).toEqual([
      { id, ...python },
      { id: rust, name: "Rust", pygments_language: "Rust", url_template: "https://play.rust-lang.org/?code={code}" },
    ]);
    await ok(s.owner.delete(`/realm/playgrounds/${id}`));
    const events = await drain(member, q);
    expect(events.map((e) => e.realm_playgrounds.map((p: any) => p.id))).toEqual([[id], [id, rust], [rust]]);
    expect(events.every((e) => e.type === "realm_playgrounds")).toBe(true);
  });

  test("Zulip's checks: administrators only, a valid template with only {code}, unique names, known ids", async () => {
    const good = { name: "JS", pygments_language: "JavaScript", url_template: "https://js.example.com/#{code}" };
    await expectError(member.post("/realm/playgrounds", good), 400, "UNAUTHORIZED_PRINCIPAL", "Must be an organization administrator");
    await expectError(
      s.owner.post("/realm/playgrounds", { ...good, url_template: "https://js.example.com/{code}/{other}" }),
      400,
      "BAD_REQUEST",
      '"code" should be the only variable present in the URL template',
    );
    await expectError(s.owner.post("/realm/playgrounds", { ...good, url_template: "not a url {code}" }), 400, "BAD_REQUEST", "Invalid URL template.");
    await expectError(
      s.owner.post("/realm/playgrounds", { ...good, pygments_language: "Java$cript" }),
      400,
      "BAD_REQUEST",
      "Invalid characters in pygments language",
    );
    await expectError(s.owner.post("/realm/playgrounds", { ...good, name: " " }), 400, "BAD_REQUEST", "Name cannot be blank");
    const { id } = await ok(s.owner.post("/realm/playgrounds", good));
    await expectError(
      s.owner.post("/realm/playgrounds", good),
      400,
      "BAD_REQUEST",
      "Realm playground with this Realm, Pygments language and Name already exists.",
    );
    await expectError(member.delete(`/realm/playgrounds/${id}`), 400, "UNAUTHORIZED_PRINCIPAL", "Must be an organization administrator");
    await expectError(s.owner.delete("/realm/playgrounds/99999"), 400, "BAD_REQUEST", "Invalid playground");
    await ok(s.owner.delete(`/realm/playgrounds/${id}`));
  });
});

describe("test welcome bot custom message", () => {
  test("an administrator receives the Welcome Bot's greeting with the text; others may not", async () => {
    const { message_id } = await ok(s.owner.post("/realm/test_welcome_bot_custom_message", { welcome_message_custom_text: "Read the **handbook** first." }));
    const { message } = await ok(s.owner.get(`/messages/${message_id}`, { apply_markdown: false }));
    expect(message.sender_full_name).toBe("Welcome Bot");
    expect(message.type).toBe("private");
    expect(message.content).toContain("Read the **handbook** first.");
    await expectError(
      member.post("/realm/test_welcome_bot_custom_message", { welcome_message_custom_text: "x" }),
      400,
      "UNAUTHORIZED_PRINCIPAL",
      "Must be an organization administrator",
    );
    await expectError(
      s.owner.post("/realm/test_welcome_bot_custom_message", { welcome_message_custom_text: "x".repeat(8001) }),
      400,
      "BAD_REQUEST",
      "welcome_message_custom_text is too long (limit: 8000 characters)",
    );
  });
});
