// POST /messages/{message_id}/report: a report lands in the moderation request channel (the realm
// setting), from the notification bot, with the reported message behind a spoiler.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { expectError, ok, type Client } from "../helpers/client";
import { startServer, type TestServer } from "../helpers/server";

let s: TestServer;
let ann: Client;
let bob: Client;
let modId: number;

beforeAll(async () => {
  s = await startServer();
  ann = await s.newUser({ name: "Ann" });
  bob = await s.newUser({ name: "Bob" });
  await ok(s.owner.post("/channels/create", { name: "general-talk", subscribers: [ann.userId, bob.userId] }));
  modId = (await ok(s.owner.post("/channels/create", { name: "moderation", subscribers: [s.owner.userId], invite_only: true }))).id;
});
afterAll(() => s.stop());

const newest = async (c: Client, narrow: unknown[]) =>
  (await ok(c.get("/messages", { anchor: "newest", num_before: 1, num_after: 0, narrow, apply_markdown: false }))).messages[0];

describe("message reports", () => {
  test("refused until the organization names a moderation request channel", async () => {
    const { id } = await ok(bob.post("/messages", { type: "stream", to: "general-talk", topic: "t", content: "spam spam" }));
    await expectError(
      ann.post(`/messages/${id}/report`, { report_type: "spam" }),
      400,
      "BAD_REQUEST",
      "Moderation request channel must be specified to enable message reporting.",
    );
  });

  test("a channel message and a direct message reported; moderators read the report", async () => {
    await ok(s.owner.patch("/realm", { moderation_request_channel_id: modId }));
    const { id } = await ok(bob.post("/messages", { type: "stream", to: "general-talk", topic: "offers", content: "buy **now**" }));
    await ok(ann.post(`/messages/${id}/report`, { report_type: "spam", description: "advertising" }));
    const report = await newest(s.owner, [{ operator: "channel", operand: modId }]);
    expect(report.sender_email).toStartWith("notification-bot");
    expect(report.subject).toBe("Bob moderation");
    expect(report.content).toStartWith(`@_**Ann|${ann.userId}** reported a message sent by @_**Bob|${bob.userId}** at <time:`);
    expect(report.content).toContain("```quote\n**Spam**. advertising\n```");
    expect(report.content).toContain(`spoiler Original message at #**general-talk>offers@${id}**\nbuy **now**\n`);

    const dm = await ok(bob.post("/messages", { type: "direct", to: [ann.userId], content: "rude words" }));
    await ok(ann.post(`/messages/${dm.id}/report`, { report_type: "harassment" }));
    const dmReport = await newest(s.owner, [{ operator: "channel", operand: modId }]);
    expect(dmReport.content).toContain(`reported a message sent by @_**Bob|${bob.userId}** to @_**Ann|${ann.userId}** at`);
    expect(dmReport.content).toContain("**Harassment**.");
    expect(dmReport.content).toContain("[Original message](#narrow/dm/");
  });

  test("bad reports are refused and post nothing", async () => {
    const { id } = await ok(bob.post("/messages", { type: "stream", to: "general-talk", topic: "t", content: "hm" }));
    const before = await newest(s.owner, [{ operator: "channel", operand: modId }]);
    await expectError(ann.post(`/messages/${id}/report`, { report_type: "other" }), 400, "BAD_REQUEST", "An explanation is required.");
    await expectError(ann.post(`/messages/${id}/report`, { report_type: "boring" }), 400, "BAD_REQUEST", "Invalid report_type");
    await expectError(ann.post("/messages/99999/report", { report_type: "spam" }), 400, "BAD_REQUEST", "Invalid message(s)");
    expect((await newest(s.owner, [{ operator: "channel", operand: modId }])).id).toBe(before.id);
  });
});
