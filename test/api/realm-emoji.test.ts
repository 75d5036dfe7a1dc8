import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { expectError, ok } from "../helpers/client";
import { startServer, type TestServer } from "../helpers/server";

let s: TestServer;
beforeAll(async () => {
  s = await startServer();
});
afterAll(() => s.stop());

const PNG = Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==", "base64");
const png = (name = "e.png") => new File([PNG], name, { type: "image/png" });

describe("realm emoji", () => {
  test("upload, list, render, react, remove; events in both shapes per individual_emoji_changes", async () => {
    const ann = await s.newUser();
    const legacy = await ok(s.owner.post("/register", { event_types: ["realm_emoji"] }));
    const modern = await ok(s.owner.post("/register", { event_types: ["realm_emoji"], client_capabilities: { individual_emoji_changes: true } }));
    await ok(ann.post("/realm/emoji/party-parrot", {}, { files: [png()] }));

    const { emoji } = await ok(s.owner.get("/realm/emoji"));
    const [id, e] = Object.entries<any>(emoji)[0]!;
    expect(e).toMatchObject({ id, name: "party-parrot", deactivated: false, author_id: ann.userId });
    const img = await fetch(s.url + e.source_url);
    expect(img.status).toBe(200);
    expect(img.headers.get("content-type")).toBe("image/png");
    expect(Buffer.from(await img.arrayBuffer()).equals(PNG)).toBe(true);

    const l = (await ok(s.owner.get("/events", { queue_id: legacy.queue_id, dont_block: true }))).events;
    expect(l).toEqual([{ id: 0, type: "realm_emoji", op: "update", realm_emoji: { [id]: e } }]);
    const m = (await ok(s.owner.get("/events", { queue_id: modern.queue_id, dont_block: true }))).events;
    expect(m).toEqual([{ id: 0, type: "realm_emoji", op: "add", emoji: e }]);

    const { rendered } = await ok(ann.post("/messages/render", { content: "look :party-parrot:" }));
    expect(rendered).toContain(`src="${e.source_url}"`);
    expect((await ok(s.owner.post("/register", { fetch_event_types: ["realm_emoji"] }))).realm_emoji).toEqual({ [id]: e });
    const { id: msg } = await ok(ann.post("/messages", { type: "direct", to: [s.owner.userId], content: "hi" }));
    await ok(s.owner.post(`/messages/${msg}/reactions`, { emoji_name: "party-parrot" }));
    await ok(ann.post(`/messages/${msg}/reactions`, { emoji_name: "party-parrot", emoji_code: id, reaction_type: "realm_emoji" }));
    const [got] = (await ok(ann.get("/messages", { message_ids: [msg] }))).messages;
    expect(got.reactions.map((r: any) => [r.emoji_name, r.emoji_code, r.reaction_type])).toEqual([
      ["party-parrot", id, "realm_emoji"],
      ["party-parrot", id, "realm_emoji"],
    ]);
    await expectError(
      ann.post(`/messages/${msg}/reactions`, { emoji_name: "party-parrot", emoji_code: "999", reaction_type: "realm_emoji" }),
      400,
      "BAD_REQUEST",
      "Invalid custom emoji.",
    );

    // Others may not remove it; its author may.
    const bob = await s.newUser();
    await expectError(bob.delete("/realm/emoji/party-parrot"), 400, "BAD_REQUEST", "Must be an organization administrator or emoji author");
    await ok(ann.delete("/realm/emoji/party-parrot"));
    const gone = (await ok(s.owner.get("/events", { queue_id: modern.queue_id, last_event_id: 0, dont_block: true }))).events;
    // The contract's `edit`, and Zulip's `update_one` that zulip-flutter (lib/api/model/events.dart) parses.
    expect(gone).toEqual([
      { id: 1, type: "realm_emoji", op: "edit", emoji: { ...e, deactivated: true } },
      { id: 1, type: "realm_emoji", op: "update_one", emoji_id: e.id, data: { deactivated: true } },
    ]);
    await expectError(ann.delete("/realm/emoji/party-parrot"), 400, "BAD_REQUEST", "Emoji 'party-parrot' does not exist");
  });

  test("bad names, files and callers are refused", async () => {
    const guest = await s.newUser({ role: 600 });
    await expectError(
      s.owner.post("/realm/emoji/Bad Name", {}, { files: [png()] }),
      400,
      "BAD_REQUEST",
      "Emoji names must contain only lowercase English letters, digits, spaces, dashes, and underscores.",
    );
    await expectError(
      s.owner.post("/realm/emoji/trailing_", {}, { files: [png()] }),
      400,
      "BAD_REQUEST",
      "Emoji names must end with either a letter or digit.",
    );
    await expectError(s.owner.post("/realm/emoji/twofiles", {}, { files: [png(), png("b.png")] }), 400, "BAD_REQUEST", "You must upload exactly one file.");
    await expectError(
      s.owner.post("/realm/emoji/notimage", {}, { files: [new File(["hello"], "x.png", { type: "image/png" })] }),
      400,
      "BAD_REQUEST",
      "Could not decode image; did you upload an image file?",
    );
    await expectError(guest.post("/realm/emoji/guesty", {}, { files: [png()] }), 400, "BAD_REQUEST", "Insufficient permission");
    await ok(s.owner.post("/realm/emoji/dup", {}, { files: [png()] }));
    await expectError(s.owner.post("/realm/emoji/dup", {}, { files: [png()] }), 400, "BAD_REQUEST", "A custom emoji with this name already exists.");
  });
});
