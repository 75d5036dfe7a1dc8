import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { expectError, ok } from "../helpers/client";
import { startServer, type TestServer } from "../helpers/server";

let s: TestServer;
beforeAll(async () => {
  s = await startServer();
});
afterAll(() => s.stop());

describe("realm linkifiers", () => {
  test("administrators manage them; the realm hears of each change only with linkifier_url_template", async () => {
    const withCap = await ok(s.owner.post("/register", { event_types: ["realm_linkifiers"], client_capabilities: { linkifier_url_template: true } }));
    const without = await ok(s.owner.post("/register", { event_types: ["realm_linkifiers"] }));
    const { id } = await ok(s.owner.post("/realm/filters", { pattern: "#(?<id>[0-9]+)", url_template: "https://tracker.example/issues/{id}" }));
    const ev = await ok(s.owner.get("/events", { queue_id: withCap.queue_id, dont_block: true }));
    expect(ev.events).toEqual([
      { type: "realm_linkifiers", id: 0, realm_linkifiers: [{ id, pattern: "#(?<id>[0-9]+)", url_template: "https://tracker.example/issues/{id}" }] },
    ]);
    expect((await ok(s.owner.get("/events", { queue_id: without.queue_id, dont_block: true }))).events).toEqual([]);

    expect((await ok(s.owner.get("/realm/linkifiers"))).linkifiers).toEqual([
      { id, pattern: "#(?<id>[0-9]+)", url_template: "https://tracker.example/issues/{id}" },
    ]);
    const reg = await ok(s.owner.post("/register", { fetch_event_types: ["realm_linkifiers"], client_capabilities: { linkifier_url_template: true } }));
    expect(reg.realm_linkifiers).toHaveLength(1);
    expect((await ok(s.owner.post("/register", { fetch_event_types: ["realm_linkifiers"] }))).realm_linkifiers).toEqual([]);

    const { id: id2 } = await ok(s.owner.post("/realm/filters", { pattern: "GH-(?<n>\\d+)", url_template: "https://example.com/pull/{n}" }));
    await ok(s.owner.patch("/realm/linkifiers", { ordered_linkifier_ids: [id2, id] }));
    expect((await ok(s.owner.get("/realm/linkifiers"))).linkifiers.map((l: any) => l.id)).toEqual([id2, id]);
    await ok(s.owner.patch(`/realm/filters/${id2}`, { pattern: "PR-(?<n>\\d+)", url_template: "https://example.com/pull/{n}" }));
    await ok(s.owner.delete(`/realm/filters/${id2}`));
    expect((await ok(s.owner.get("/realm/linkifiers"))).linkifiers.map((l: any) => l.id)).toEqual([id]);
  });

  test("Zulip's own syntax, as its OpenAPI example writes it, is kept as given and links messages", async () => {
    for (const l of (await ok(s.owner.get("/realm/linkifiers"))).linkifiers) await ok(s.owner.delete(`/realm/filters/${l.id}`));
    const pattern = "#(?P<id>[0-9]+)";
    const { id } = await ok(s.owner.post("/realm/filters", { pattern, url_template: "https://github.com/zulip/zulip/issues/{id}" }));
    expect((await ok(s.owner.get("/realm/linkifiers"))).linkifiers.find((l: any) => l.id === id).pattern).toBe(pattern);
    const r = await ok(s.owner.post("/messages/render", { content: "see #1234" }));
    expect(r.rendered).toContain('href="https://github.com/zulip/zulip/issues/1234"');
  });

  test("bad input and non-administrators are refused, changing nothing", async () => {
    const member = await s.newUser();
    const before = (await ok(s.owner.get("/realm/linkifiers"))).linkifiers;
    await expectError(
      member.post("/realm/filters", { pattern: "x(?<a>.)", url_template: "https://x.example/{a}" }),
      400,
      "UNAUTHORIZED_PRINCIPAL",
      "Must be an organization administrator",
    );
    await expectError(
      s.owner.post("/realm/filters", { pattern: "(unclosed", url_template: "https://x.example/" }),
      400,
      "BAD_REQUEST",
      /^Bad regular expression: /,
    );
    await expectError(
      s.owner.post("/realm/filters", { pattern: "T-(?<t>\\d+)", url_template: "https://x.example/{other}" }),
      400,
      "BAD_REQUEST",
      'Group "other" in URL template is not present in linkifier pattern.',
    );
    await expectError(
      s.owner.post("/realm/filters", { pattern: "T-(?<t>\\d+)", url_template: "javascript:alert({t})" }),
      400,
      "BAD_REQUEST",
      "Enter a valid URL.",
    );
    await expectError(s.owner.delete("/realm/filters/99999"), 400, "BAD_REQUEST", "Linkifier not found.");
    await expectError(
      s.owner.patch("/realm/linkifiers", { ordered_linkifier_ids: [] }),
      400,
      "BAD_REQUEST",
      "The ordered list must enumerate all existing linkifiers exactly once",
    );
    expect((await ok(s.owner.get("/realm/linkifiers"))).linkifiers).toEqual(before);
  });
});
