// `confab export` and `confab import`, run as an operator runs them: a Zulip export directory and a
// Slack export zip written here in those formats, and a round trip from a live server's data through
// `confab export` into an empty data directory. What was imported is read back over the API.
import { afterAll, describe, expect, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { strToU8, zipSync } from "fflate";
import { ok } from "../helpers/client";
import { startServer } from "../helpers/server";
import { api, failure, run, serve, tempDir, type Served } from "./run";

const tmp = tempDir("confab-import-");
afterAll(() => tmp.remove());
let n = 0;
const fresh = () => join(tmp.path, `d${++n}`);

/** Serves an imported data dir and reads it as `email` (API key from `confab user api-key`). */
async function served(
  dataDir: string,
  email: string,
): Promise<{ srv: Served; file(url: string): Promise<Response>; get(path: string, q?: Record<string, unknown>): Promise<any> }> {
  const key = await run(["user", "api-key", email, "--data-dir", dataDir, "--realm", ""]);
  expect(key.code).toBe(0);
  const srv = await serve(dataDir);
  const auth: [string, string] = [email, key.stdout.trim()];
  return {
    srv,
    file: (url: string) => fetch(srv.url + url, { headers: { Authorization: "Basic " + Buffer.from(auth.join(":")).toString("base64") } }),
    async get(path, q = {}) {
      const qs = new URLSearchParams(Object.entries(q).map(([k, v]): [string, string] => [k, typeof v === "string" ? v : JSON.stringify(v)]));
      const r = await api(srv.url, `${path}?${qs}`, { auth });
      expect({ path, ...r.body }).toMatchObject({ path, result: "success" });
      return r.body;
    },
  };
}

const allMessages = (get: (p: string, q?: Record<string, unknown>) => Promise<any>) =>
  get("/messages", { anchor: "oldest", num_before: 0, num_after: 1000, apply_markdown: false }).then((b) => b.messages);

describe("confab import of a Zulip export", () => {
  test("users, channels, subscriptions, messages (channel, direct, group), flags and reactions arrive", async () => {
    const dir = join(tmp.path, "zulip-export");
    mkdirSync(join(dir, "uploads"), { recursive: true });
    const t0 = 1_700_000_000.25;
    writeFileSync(
      join(dir, "realm.json"),
      JSON.stringify({
        zerver_realm: [{ id: 7, string_id: "zulip", name: "Zulip Dev", description: "From Zulip", date_created: t0 }],
        zerver_userprofile: [
          {
            id: 10,
            email: "user10@zulip.invalid",
            delivery_email: "iago@zulip.test",
            full_name: "Iago",
            role: 100,
            is_active: true,
            is_bot: false,
            date_joined: t0,
            timezone: "UTC",
            realm: 7,
          },
          {
            id: 11,
            email: "user11@zulip.invalid",
            delivery_email: "hamlet@zulip.test",
            full_name: "King Hamlet",
            role: 400,
            is_active: true,
            is_bot: false,
            date_joined: t0,
            timezone: "",
            realm: 7,
          },
          {
            id: 12,
            email: "user12@zulip.invalid",
            delivery_email: "cordelia@zulip.test",
            full_name: "Cordelia",
            role: 400,
            is_active: false,
            is_bot: false,
            date_joined: t0,
            timezone: "",
            realm: 7,
          },
        ],
        zerver_stream: [
          {
            id: 3,
            name: "Denmark",
            description: "A channel",
            invite_only: false,
            history_public_to_subscribers: true,
            date_created: t0,
            realm: 7,
            recipient: 23,
            deactivated: false,
          },
        ],
        zerver_recipient: [
          { id: 20, type: 1, type_id: 10 },
          { id: 21, type: 1, type_id: 11 },
          { id: 22, type: 1, type_id: 12 },
          { id: 23, type: 2, type_id: 3 },
          { id: 24, type: 3, type_id: 1 },
        ],
        zerver_huddle: [{ id: 1, huddle_hash: "x", group_size: 3 }],
        zerver_subscription: [
          { id: 1, user_profile: 10, recipient: 23, active: true, color: "#76ce90", is_muted: false, pin_to_top: true },
          { id: 2, user_profile: 11, recipient: 23, active: true, color: "#abcdef", is_muted: false, pin_to_top: false },
          ...[10, 11, 12].map((u, i) => ({ id: 3 + i, user_profile: u, recipient: 24, active: true })),
        ],
        zerver_defaultstream: [{ id: 1, realm: 7, stream: 3 }],
        zerver_userprofile_crossrealm: [{ id: 1, email: "notification-bot@zulip.com" }],
        zerver_client: [{ id: 1, name: "website" }],
        zerver_reaction: [{ id: 1, message: 101, user_profile: 11, emoji_name: "octopus", emoji_code: "1f419", reaction_type: "unicode_emoji" }],
      }),
    );
    writeFileSync(
      join(dir, "messages-000001.json"),
      JSON.stringify({
        zerver_message: [
          {
            id: 101,
            sender: 10,
            recipient: 23,
            subject: "castle",
            content: "Hello @**King Hamlet|11**",
            rendered_content: "<p>old</p>",
            date_sent: t0 + 10,
            sending_client: 1,
          },
          { id: 102, sender: 11, recipient: 20, subject: "", content: "a word to Iago", date_sent: t0 + 20 },
          { id: 103, sender: 12, recipient: 24, subject: "", content: "to the three of us", date_sent: t0 + 30 },
          { id: 100, sender: 1, recipient: 23, subject: "castle", content: "@_**Iago|10** created this channel.", date_sent: t0 + 5 },
          { id: 104, sender: 11, recipient: 23, subject: "castle", content: "[skull.txt](/user_uploads/7/ab/xyz/skull.txt)", date_sent: t0 + 40 },
        ],
        zerver_usermessage: [
          { id: 1, user_profile: 10, message: 101, flags_mask: 1 | 2 },
          { id: 2, user_profile: 11, message: 101, flags_mask: 8 },
          { id: 3, user_profile: 10, message: 102, flags_mask: 0 },
          { id: 4, user_profile: 11, message: 102, flags_mask: 1 },
          ...[10, 11, 12].map((u, i) => ({ id: 5 + i, user_profile: u, message: 103, flags_mask: 1 })),
          { id: 8, user_profile: 10, message: 104, flags_mask: 1 },
          { id: 9, user_profile: 10, message: 100, flags_mask: 1 },
        ],
      }),
    );
    const pathId = "7/ab/xyz/skull.txt";
    writeFileSync(
      join(dir, "attachment.json"),
      JSON.stringify({
        zerver_attachment: [
          { id: 1, file_name: "skull.txt", path_id: pathId, owner: 11, realm: 7, size: 11, create_time: t0 + 39, messages: [104], content_type: "text/plain" },
        ],
      }),
    );
    writeFileSync(
      join(dir, "uploads", "records.json"),
      JSON.stringify([{ path: pathId, s3_path: pathId, realm_id: 7, user_profile_id: 11, size: 11, content_type: "text/plain" }]),
    );
    mkdirSync(join(dir, "uploads", "7", "ab", "xyz"), { recursive: true });
    writeFileSync(join(dir, "uploads", pathId), "alas, yorik");

    const dataDir = fresh();
    const r = await run(["import", dir, "--subdomain", "", "--data-dir", dataDir]);
    expect(r.stderr).toBe("");
    expect(r.stdout).toMatch(/^imported into realm \d+ \(.+\): 4 users, 1 channels, 5 messages, 1 reactions, 1 files\n$/);

    const { srv, get, file } = await served(dataDir, "iago@zulip.test");
    try {
      const users = (await get("/users")).members.filter((u: any) => !u.is_bot);
      expect(users.map((u: any) => [u.email, u.full_name, u.role, u.is_active])).toEqual(
        expect.arrayContaining([
          ["iago@zulip.test", "Iago", 100, true],
          ["hamlet@zulip.test", "King Hamlet", 400, true],
          ["cordelia@zulip.test", "Cordelia", 400, false],
        ]),
      );
      const hamlet = users.find((u: any) => u.full_name === "King Hamlet");
      const subs = (await get("/users/me/subscriptions")).subscriptions;
      expect(subs.map((x: any) => [x.name, x.color, x.pin_to_top, x.description])).toEqual([["Denmark", "#76ce90", true, "A channel"]]);
      expect((await get("/streams")).streams.map((c: any) => [c.name, c.is_default])).toEqual([["Denmark", true]]);
      const msgs = await allMessages(get);
      const iago = users.find((u: any) => u.full_name === "Iago");
      expect(msgs.map((m: any) => [m.content, m.subject, m.timestamp, m.type])).toEqual([
        [`@_**Iago|${iago.user_id}** created this channel.`, "castle", 1_700_000_005, "stream"],
        [`Hello @**King Hamlet|${hamlet.user_id}**`, "castle", 1_700_000_010, "stream"],
        ["a word to Iago", "", 1_700_000_020, "private"],
        ["to the three of us", "", 1_700_000_030, "private"],
        [expect.stringMatching(/^\[skull\.txt\]\(\/user_uploads\/\d+\/[^/]+\/skull\.txt\)$/), "castle", 1_700_000_040, "stream"],
      ]);
      // The file is stored under the new realm, its link rewritten, and served to a reader of the message.
      const url = /\((\/user_uploads\/[^)]+)\)/.exec(msgs[4].content)![1]!;
      expect(await (await file(url)).text()).toBe("alas, yorik");
      // Zulip's system bot, who sent the first message, came along as a bot.
      const bot = (await get("/users")).members.find((u: any) => u.email === "notification-bot@zulip.com");
      expect([bot.is_bot, bot.full_name, msgs[0].sender_id]).toEqual([true, "Notification Bot", bot.user_id]);
      expect(msgs[1].client).toBe("website");
      msgs.shift();
      expect(msgs[0].flags).toEqual(expect.arrayContaining(["read", "starred"]));
      expect(msgs[1].flags).not.toContain("read");
      expect(msgs[2].display_recipient.length).toBe(3);
      expect(msgs[0].reactions.map((x: any) => [x.emoji_name, x.user_id])).toEqual([["octopus", hamlet.user_id]]);
      // Rendered again here: the mention points at the new user id.
      const html = (await get(`/messages/${msgs[0].id}`)).message.content;
      expect(html).toContain(`data-user-id="${hamlet.user_id}"`);
    } finally {
      await srv.stop();
    }
  }, 30_000);

  test("a subdomain in use, a missing path, and something that is no export fail with one line and nothing imported", async () => {
    const dataDir = fresh();
    const notExport = join(tmp.path, "empty-dir");
    mkdirSync(notExport, { recursive: true });
    expect(failure(await run(["import", join(tmp.path, "nope.tar.gz"), "--subdomain", "x", "--data-dir", dataDir]))).toMatchObject({
      code: 1,
      lines: [expect.stringContaining("does not exist")],
    });
    expect(failure(await run(["import", notExport, "--subdomain", "x", "--data-dir", dataDir]))).toMatchObject({
      code: 1,
      lines: [expect.stringContaining("not a Zulip export")],
    });
    const zip = join(tmp.path, "junk.zip");
    writeFileSync(zip, "not a zip");
    expect(failure(await run(["import", zip, "--subdomain", "x", "--data-dir", dataDir]))).toMatchObject({
      code: 1,
      lines: [expect.stringContaining("not a zip file")],
    });
    expect((await run(["realm", "create", "--subdomain", "taken", "--name", "T", "--owner-email", "o@t.test", "--data-dir", dataDir])).code).toBe(0);
    const dir = join(tmp.path, "zulip-export");
    expect(failure(await run(["import", dir, "--subdomain", "taken", "--data-dir", dataDir]))).toMatchObject({
      code: 1,
      lines: ["confab: Subdomain 'taken' is already in use"],
    });
    const list = await run(["realm", "list", "--json", "--data-dir", dataDir]);
    expect(JSON.parse(list.stdout).map((x: any) => x.subdomain)).toEqual(["taken"]);
  }, 30_000);
});

describe("confab import of a Slack export", () => {
  test("users, public and private channels, threads as topics, mentions and formatting, reactions, direct messages, files", async () => {
    const day = (msgs: object[]) => strToU8(JSON.stringify(msgs));
    const ts = (s: number) => `${1_650_000_000 + s}.000${s}00`;
    const zip = zipSync({
      "users.json": strToU8(
        JSON.stringify([
          {
            id: "U01",
            name: "alice",
            real_name: "Alice Liddell",
            is_owner: true,
            is_primary_owner: true,
            tz: "Europe/London",
            profile: { email: "alice@wonder.test", real_name: "Alice Liddell" },
          },
          { id: "U02", name: "bob", real_name: "Bob Builder", profile: { email: "bob@wonder.test", real_name: "Bob Builder" } },
          { id: "U03", name: "gone", deleted: true, profile: { email: "gone@wonder.test", real_name: "Gone Person" } },
        ]),
      ),
      "channels.json": strToU8(
        JSON.stringify([
          { id: "C01", name: "general", created: 1_649_000_000, creator: "U01", is_general: true, members: ["U01", "U02"], purpose: { value: "Everything" } },
        ]),
      ),
      "groups.json": strToU8(
        JSON.stringify([{ id: "G01", name: "inner-circle", created: 1_649_000_000, creator: "U01", members: ["U01"], purpose: { value: "" } }]),
      ),
      "dms.json": strToU8(JSON.stringify([{ id: "D01", members: ["U01", "U02"] }])),
      "general/2022-04-15.json": day([
        {
          type: "message",
          user: "U01",
          text: "Welcome <@U02>! See *this* and <https://example.com|the site>",
          ts: ts(1),
          reactions: [
            { name: "+1", users: ["U02"], count: 1 },
            { name: "no-such-emoji-here", users: ["U01"] },
          ],
        },
        { type: "message", subtype: "channel_join", user: "U02", text: "<@U02> has joined the channel", ts: ts(2) },
        { type: "message", user: "U02", text: "Shall we plan the launch?", ts: ts(3), thread_ts: ts(3), reply_count: 1 },
      ]),
      "general/2022-04-16.json": day([
        { type: "message", user: "U01", text: "Yes, Friday", ts: ts(90_000), thread_ts: ts(3), parent_user_id: "U02" },
        {
          type: "message",
          user: "U02",
          text: "here is the plan",
          ts: ts(90_001),
          files: [{ id: "F01", name: "plan.txt", mimetype: "text/plain", size: 6, url_private: "https://files.slack.com/F01/plan.txt" }],
        },
        {
          type: "message",
          user: "U01",
          text: "not in the zip",
          ts: ts(90_002),
          files: [{ id: "F02", name: "big.mov", url_private: "https://files.slack.com/F02/big.mov" }],
        },
        { type: "message", subtype: "bot_message", bot_id: "B01", username: "Deploy Bot", text: "deployed v2", ts: ts(90_003) },
      ]),
      "__uploads/F01/plan.txt": strToU8("step 1"),
      "inner-circle/2022-04-15.json": day([{ type: "message", user: "U01", text: "secret ~plans~", ts: ts(5) }]),
      "D01/2022-04-15.json": day([{ type: "message", user: "U02", text: "psst, Alice", ts: ts(6) }]),
    });
    const zipFile = join(tmp.path, "slack.zip");
    writeFileSync(zipFile, zip);

    const dataDir = fresh();
    const r = await run(["import", zipFile, "--subdomain", "", "--name", "Wonderland", "--data-dir", dataDir]);
    expect(r.stderr).toBe("");
    expect(r.stdout).toMatch(/: 4 users, 2 channels, 8 messages, 1 reactions, 1 files\n$/);

    const { srv, get, file } = await served(dataDir, "alice@wonder.test");
    try {
      const users = (await get("/users")).members.filter((u: any) => !u.is_bot);
      expect(users.map((u: any) => [u.email, u.full_name, u.role, u.is_active]).sort()).toEqual([
        ["alice@wonder.test", "Alice Liddell", 100, true],
        ["bob@wonder.test", "Bob Builder", 400, true],
        ["gone@wonder.test", "Gone Person", 400, false],
      ]);
      const bob = users.find((u: any) => u.full_name === "Bob Builder");
      const subs = (await get("/users/me/subscriptions")).subscriptions;
      expect(subs.map((x: any) => [x.name, x.invite_only, x.description]).sort()).toEqual([
        ["general", false, "Everything"],
        ["inner-circle", true, ""],
      ]);
      const msgs = await allMessages(get);
      expect(msgs.map((m: any) => [m.display_recipient instanceof Array ? "dm" : m.display_recipient, m.subject, m.content])).toEqual([
        ["general", "imported from Slack", "Welcome @**Bob Builder**! See **this** and [the site](https://example.com)"],
        ["general", "Shall we plan the launch?", "Shall we plan the launch?"],
        ["inner-circle", "imported from Slack", "secret ~~plans~~"],
        ["dm", "", "psst, Alice"],
        ["general", "Shall we plan the launch?", "Yes, Friday"],
        ["general", "imported from Slack", expect.stringMatching(/^here is the plan\n\[plan\.txt\]\(\/user_uploads\/\d+\/[^/]+\/plan\.txt\)$/)],
        ["general", "imported from Slack", "not in the zip\n[big.mov](https://files.slack.com/F02/big.mov)"],
        ["general", "imported from Slack", "deployed v2"],
      ]);
      expect(msgs[7].sender_full_name).toBe("Deploy Bot");
      expect((await get(`/users/${msgs[7].sender_id}`)).user.is_bot).toBe(true);
      expect(await (await file(/\((\/user_uploads\/[^)]+)\)/.exec(msgs[5].content)![1]!)).text()).toBe("step 1");
      expect(msgs[0].timestamp).toBe(1_650_000_001);
      expect(msgs[0].reactions.map((x: any) => [x.emoji_code, x.user_id])).toEqual([["1f44d", bob.user_id]]);
      expect(msgs.every((m: any) => m.flags.includes("read"))).toBe(true);
    } finally {
      await srv.stop();
    }
  }, 30_000);
});

describe("round trip", () => {
  test("confab export of a live server → confab import into an empty data dir: the same users, channels, messages and reactions", async () => {
    const s = await startServer();
    try {
      const ann = await s.newUser({ name: "Ann Round", email: "ann@round.test" });
      const bob = await s.newUser({ name: "Bob Round", email: "bob@round.test" });
      await ok(
        s.owner.post("/users/me/subscriptions", {
          subscriptions: JSON.stringify([{ name: "trip", description: "there and back" }]),
          principals: JSON.stringify([ann.userId, bob.userId, s.owner.userId]),
        }),
      );
      const m1 = await ok(ann.post("/messages", { type: "stream", to: "trip", topic: "plans", content: "**bold** plan for @**Bob Round**" }));
      await ok(bob.post("/messages", { type: "stream", to: "trip", topic: "other", content: "second" }));
      await ok(bob.post("/messages", { type: "direct", to: JSON.stringify([ann.userId]), content: "just us" }));
      await ok(ann.post("/messages", { type: "direct", to: JSON.stringify([bob.userId, s.owner.userId]), content: "the three of us" }));
      await ok(bob.post(`/messages/${m1.id}/reactions`, { emoji_name: "octopus" }));
      const up = await ok(bob.post("/user_uploads", {}, { files: [new File(["round bytes"], "notes.txt", { type: "text/plain" })] }));
      await ok(bob.post("/messages", { type: "stream", to: "trip", topic: "plans", content: `[notes](${up.url})` }));
      await ok(ann.post("/messages/flags", { messages: JSON.stringify([m1.id]), op: "add", flag: "starred" }));

      const read = async (get: (p: string, q?: Record<string, unknown>) => Promise<any>, fileText: (url: string) => Promise<string>) => {
        const users = (await get("/users")).members.filter((u: any) => !u.is_bot);
        const nameOf = new Map(users.map((u: any) => [u.user_id, u.full_name]));
        const msgs = await allMessages(get);
        return {
          users: users.map((u: any) => [u.email, u.full_name, u.role, u.is_active]).sort(),
          channels: (await get("/streams")).streams.map((c: any) => [c.name, c.description, c.invite_only]).sort(),
          messages: msgs.map((m: any) => ({
            sender: nameOf.get(m.sender_id),
            to: Array.isArray(m.display_recipient) ? m.display_recipient.map((x: any) => x.full_name).sort() : m.display_recipient,
            topic: m.subject,
            content: m.content,
            timestamp: m.timestamp,
            flags: m.flags.filter((f: string) => f === "read" || f === "starred").sort(),
            reactions: m.reactions.map((x: any) => [x.emoji_name, nameOf.get(x.user_id)]),
          })),
          files: await Promise.all(msgs.flatMap((m: any) => [...m.content.matchAll(/\((\/user_uploads\/[^)]+)\)/g)].map((x) => fileText(x[1])))),
        };
      };
      const asAnn = async (p: string, q: Record<string, unknown> = {}) => ok(ann.get(p, q));
      const before = await read(asAnn, async (url) =>
        (await fetch(s.url + url, { headers: { Authorization: "Basic " + Buffer.from(`${ann.email}:${ann.apiKey}`).toString("base64") } })).text(),
      );
      expect(before.files).toEqual(["round bytes"]);
      expect(before.messages.map((m: any) => m.content)).toEqual(expect.arrayContaining(["second", "just us", "the three of us"]));

      const out = join(tmp.path, "round.tar.gz");
      const e = await run(["export", out, "--data-dir", s.dataDir, "--realm", ""]);
      expect(e.stderr).toBe("");
      expect(e.stdout).toMatch(/^exported '' to .*round\.tar\.gz: \d+ users, 1 channels, \d+ messages\n$/);
      expect(failure(await run(["export", out, "--data-dir", s.dataDir]))).toMatchObject({ code: 1, lines: [expect.stringContaining("already exists")] });

      const dataDir = fresh();
      const r = await run(["import", out, "--subdomain", "", "--data-dir", dataDir]);
      expect(r.stderr).toBe("");
      const { srv, get, file } = await served(dataDir, "ann@round.test");
      try {
        const after = await read(get, async (url) => (await file(url)).text());
        // Upload links point at the new realm's copies; everything else is as it was.
        const strip = (x: typeof before) => JSON.parse(JSON.stringify(x).replace(/\/user_uploads\/[^)"]+/g, "/user_uploads/…"));
        expect(strip(after)).toEqual(strip(before));
        expect(after.files).toEqual(["round bytes"]);
      } finally {
        await srv.stop();
      }
    } finally {
      await s.stop();
    }
  }, 60_000);
});
