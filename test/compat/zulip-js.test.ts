// Zulip's own JavaScript client (zulip-js, from npm), unmodified, against confab: the goal that sets
// confab apart, checked with a real client rather than our test client. The client runs under Node,
// as its users run it.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { join } from "node:path";
import { startServer, type TestServer } from "../helpers/server";

let s: TestServer;
beforeAll(async () => {
  s = await startServer();
});
afterAll(() => s.stop());

test("zulip-js: profile, subscribe, register, send, events, fetch, streams, users, settings, edit, flags", async () => {
  const proc = Bun.spawn(["node", join(import.meta.dir, "zulip-js-client.cjs"), s.url, s.owner.email!, s.owner.apiKey!], { stdout: "pipe", stderr: "pipe" });
  const [stdout, stderr, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
  expect({ code, stderr }).toEqual({ code: 0, stderr: "" });
  const r = JSON.parse(stdout);
  for (const [step, answer] of Object.entries<any>(r)) expect({ step, result: answer.result }).toEqual({ step, result: "success" });
  expect(r.me.user_id).toBe(s.owner.userId);
  expect(typeof r.register.queue_id).toBe("string");
  expect(r.events.events).toEqual([
    expect.objectContaining({ type: "message", message: expect.objectContaining({ id: r.send.id, content: "Hi from **zulip-js**" }) }),
  ]);
  expect(r.fetch.messages.at(-1)).toMatchObject({ id: r.send.id, subject: "hello", content: "<p>Hi from <strong>zulip-js</strong></p>" });
  expect(r.streams.streams.map((c: any) => c.name)).toContain("general");
  expect(r.users.members.map((u: any) => u.user_id)).toContain(s.owner.userId);
  expect(r.settings.zulip_feature_level).toBe(496);
  expect(r.after.messages[0]).toMatchObject({ id: r.send.id, content: "<p>Edited by zulip-js</p>", flags: expect.arrayContaining(["starred"]) });
});
