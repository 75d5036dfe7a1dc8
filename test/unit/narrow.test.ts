// domain/narrow.ts: parsing both narrow forms, compiling each operator (alone, negated, combined) to SQL
// against a fake realm, and Zulip's search-text semantics.
import { Database } from "bun:sqlite";
import { describe, expect, test } from "bun:test";
import { applyWith, compileNarrow, parseNarrow, searchQuery, type NarrowContext, type NarrowTerm } from "../../src/domain/narrow";

const channels: Record<string, { id: number; recipientId: number; isWebPublic: boolean }> = {
  general: { id: 1, recipientId: 10, isWebPublic: false },
  web: { id: 2, recipientId: 20, isWebPublic: true },
  secret: { id: 3, recipientId: 30, isWebPublic: false },
};
const users: Record<string, number> = { "me@x.com": 100, "ann@x.com": 101, "bob@x.com": 102 };

const ctx = (viewerId: number | null = 100): NarrowContext => ({
  viewerId,
  channel: async (op) => Object.values(channels).find((c) => c.id === op) ?? channels[String(op).toLowerCase()] ?? null,
  canReadHistory: async (c) => c.id !== 3,
  canReadPublicHistory: true,
  publicChannelRecipients: () => [10, 20],
  webPublicChannelRecipients: () => [20],
  user: async (op) => {
    const id = typeof op === "number" ? op : users[op];
    return id !== undefined && Object.values(users).includes(id) ? { id } : null;
  },
  dmRecipient: async (ids) => (ids.sort().join() === "100,101" ? 40 : ids.sort().join() === "100,101,102" ? 50 : null),
  dmRecipientsWith: async (id, groupsOnly) => (id === 101 ? (groupsOnly ? [50] : [40, 50]) : []),
  mutedChannelRecipients: async () => [30],
  topicPolicies: async () => [
    { recipientId: 10, topic: "noise", policy: 1 },
    { recipientId: 10, topic: "news", policy: 3 },
  ],
});

const term = (operator: string, operand: NarrowTerm["operand"], negated = false): NarrowTerm => ({ operator, operand, negated });

describe("parseNarrow", () => {
  test("objects and string pairs; negation", () => {
    expect(parseNarrow([["stream", "general"], { operator: "topic", operand: "x", negated: true }])).toEqual([
      term("stream", "general"),
      term("topic", "x", true),
    ]);
    expect(parseNarrow([{ operator: "dm", operand: [1, 2] }])).toEqual([term("dm", [1, 2])]);
  });
  const bad: [unknown, string][] = [
    ["x", "Invalid narrow operator: narrow is not a list"],
    [[["a"]], "Invalid narrow operator: narrow[0]: element is not a string pair"],
    [[{ operand: "x" }], "Invalid narrow operator: narrow[0]: operator is missing"],
    [[{ operator: "topic", operand: 5 }], "Invalid narrow operator: narrow[0]: operand is not a string"],
    [[{ operator: "search", operand: " " }], "Invalid narrow operator: narrow[0]: operand cannot be blank"],
    [[{ operator: "is", operand: "x", negated: "yes" }], "Invalid narrow operator: narrow[0]: negated is not a boolean"],
  ];
  for (const [input, msg] of bad) test(`rejects ${JSON.stringify(input)}`, () => expect(() => parseNarrow(input)).toThrow(msg));
});

// Each case: terms → the conditions after the viewer/realm preamble, and their parameters.
const cases: [string, NarrowTerm[], string[], unknown[]][] = [
  ["channel by name", [term("channel", "general")], ["m.recipient_id = ?"], [10]],
  ["stream by id, negated", [term("stream", 1, true)], ["NOT (m.recipient_id = ?)"], [10]],
  ["channels:public", [term("channels", "public")], ["m.recipient_id IN (10,20)"], []],
  ["streams:web-public negated", [term("streams", "web-public", true)], ["NOT (m.recipient_id IN (20))"], []],
  ["topic", [term("topic", "Lunch")], ["m.topic = ?"], ["Lunch"]],
  ["empty topic display name", [term("subject", "general chat")], ["m.topic = ?"], [""]],
  ["sender by email", [term("sender", "ann@x.com")], ["m.sender_id = ?"], [101]],
  ["sender by id negated", [term("sender", 102, true)], ["NOT (m.sender_id = ?)"], [102]],
  ["dm by emails", [term("dm", "ann@x.com")], ["m.recipient_id = ?"], [40]],
  ["pm-with by ids, unknown conversation", [term("pm-with", [102])], ["false"], []],
  ["dm-including", [term("dm-including", 101)], ["m.recipient_id IN (40,50)"], []],
  ["dm-including self", [term("dm-including", 100)], ["(um.flags & 256) != 0"], []],
  ["group-pm-with", [term("group-pm-with", "ann@x.com")], ["m.recipient_id IN (50)"], []],
  ["is:dm", [term("is", "dm")], ["(um.flags & 256) != 0"], []],
  ["is:private negated", [term("is", "private", true)], ["NOT ((um.flags & 256) != 0)"], []],
  ["is:starred", [term("is", "starred")], ["(um.flags & 2) != 0"], []],
  ["is:unread", [term("is", "unread")], ["(um.flags & 1) = 0"], []],
  ["is:mentioned", [term("is", "mentioned")], ["(um.flags & 56) != 0"], []],
  ["is:alerted", [term("is", "alerted")], ["(um.flags & 64) != 0"], []],
  ["is:resolved", [term("is", "resolved")], ["m.topic LIKE ?"], ["✔ %"]],
  ["is:followed", [term("is", "followed")], ["((m.recipient_id = ? AND m.topic = ?))"], [10, "news"]],
  [
    "is:muted",
    [term("is", "muted")],
    ["((m.recipient_id IN (30) AND NOT ((m.recipient_id = ? AND m.topic = ?))) OR ((m.recipient_id = ? AND m.topic = ?)))"],
    [10, "news", 10, "noise"],
  ],
  ["has:link", [term("has", "link")], ["m.has_link = true"], []],
  ["has:image negated", [term("has", "image", true)], ["NOT (m.has_image = true)"], []],
  ["has:attachment", [term("has", "attachment")], ["m.has_attachment = true"], []],
  ["has:reaction", [term("has", "reaction")], ["EXISTS (SELECT 1 FROM reactions r WHERE r.message_id = m.id)"], []],
  ["id", [term("id", 42)], ["m.id = ?"], [42]],
  ["near filters nothing", [term("near", 42)], [], []],
  [
    "channel + topic + sender",
    [term("channel", "general"), term("topic", "a"), term("sender", 101, true)],
    ["m.recipient_id = ?", "m.topic = ?", "NOT (m.sender_id = ?)"],
    [10, "a", 101],
  ],
];

describe("compileNarrow: each operator", () => {
  for (const [name, terms, conds, params] of cases)
    test(name, async () => {
      const c = await compileNarrow(terms, ctx(), { realmId: 7 });
      // Strip the preamble: the viewer's rows (um-driven) or the realm (history).
      const viewerFirst = c.where[0] === "um.user_id = ?";
      expect(c.where.slice(viewerFirst ? 1 : 0).filter((w) => w !== "m.realm_id = ?")).toEqual(conds);
      expect(c.params.slice(viewerFirst || c.includeHistory ? 1 : 0)).toEqual(params);
    });

  const errors: [string, NarrowTerm[], string][] = [
    ["unknown operator", [term("bogus", "x")], "Invalid narrow operator: unknown operator bogus"],
    ["unknown channel", [term("channel", "nope")], "Invalid narrow operator: unknown channel nope"],
    ["unknown channels operand", [term("channels", "all")], "Invalid narrow operator: unknown channels operand all"],
    ["unknown user", [term("sender", "who@x.com")], "Invalid narrow operator: unknown user who@x.com"],
    ["unknown dm user", [term("dm", "who@x.com")], "Invalid narrow operator: unknown user in who@x.com"],
    ["unknown is", [term("is", "shiny")], "Invalid narrow operator: unknown 'is' operand shiny"],
    ["unknown has", [term("has", "cats")], "Invalid narrow operator: unknown 'has' operand cats"],
    ["bad id", [term("id", "x")], "Invalid narrow operator: Invalid message ID"],
    ["channel and dm", [term("channel", "general"), term("is", "dm")], "Invalid narrow operator: No message can be both a channel message and direct message"],
  ];
  for (const [name, terms, msg] of errors) test(`error: ${name}`, async () => await expect(compileNarrow(terms, ctx(), { realmId: 7 })).rejects.toThrow(msg));
});

describe("compileNarrow: history, drivers, spectators", () => {
  test("a readable channel includes history; an is: term or a protected channel does not", async () => {
    expect((await compileNarrow([term("channel", "general")], ctx(), { realmId: 7 })).includeHistory).toBe(true);
    expect((await compileNarrow([term("channel", "general"), term("is", "starred")], ctx(), { realmId: 7 })).includeHistory).toBe(false);
    expect((await compileNarrow([term("channel", "secret")], ctx(), { realmId: 7 })).includeHistory).toBe(false);
    expect((await compileNarrow([term("channel", "general", true)], ctx(), { realmId: 7 })).includeHistory).toBe(false);
    expect((await compileNarrow([term("channel", "general")], ctx(), { realmId: 7, forceUserMessages: true })).includeHistory).toBe(false);
  });

  test("spectators: web-public only, no personal operators", async () => {
    const c = await compileNarrow([term("channels", "web-public")], ctx(null), { realmId: 7 });
    expect(c.where).toContain("m.recipient_id IN (20)");
    await expect(compileNarrow([term("channel", "general")], ctx(null), { realmId: 7 })).rejects.toThrow("unknown web-public channel general");
    await expect(compileNarrow([term("is", "starred")], ctx(null), { realmId: 7 })).rejects.toThrow("unknown operator is");
  });

  test("every compiled query is valid SQL over the real schema shape", async () => {
    const db = new Database(":memory:");
    db.run(
      "CREATE TABLE messages (id INTEGER PRIMARY KEY, realm_id, sender_id, recipient_id, topic, content, rendered_content, has_link, has_image, has_attachment)",
    );
    db.run("CREATE TABLE user_messages (user_id, message_id, flags, PRIMARY KEY (user_id, message_id)) WITHOUT ROWID");
    db.run("CREATE TABLE reactions (message_id)");
    db.run("CREATE VIRTUAL TABLE messages_fts USING fts5(topic, body, content='', contentless_delete=1)");
    for (const [, terms] of [...cases, ["search", [term("search", 'lunch "big plan"')]] as const]) {
      const c = await compileNarrow(terms as NarrowTerm[], ctx(), { realmId: 7 });
      expect(() => db.query(`SELECT ${c.idCol}, ${c.flagsCol} FROM ${c.from} WHERE ${c.where.join(" AND ") || "1"}`).all(...(c.params as any[]))).not.toThrow();
    }
  });
});

describe("search text", () => {
  test("words are ANDed, stop words dropped, phrases kept; nothing injects FTS syntax", () => {
    expect(searchQuery("the Lunch plans")).toEqual({ match: '"lunch" AND "plans"', phrases: [] });
    expect(searchQuery('"big plan" NEAR(x) OR*')).toEqual({ match: '"big plan" AND "near" AND "x"', phrases: ["big plan"] });
    expect(searchQuery("the and of")).toEqual({ match: null, phrases: [] });
  });
});

describe("with", () => {
  test("replaces channel, topic and dm terms by the message's conversation", async () => {
    const conv = async (id: number) => (id === 5 ? { channelId: 1, topic: "t" } : id === 6 ? { dmUserIds: [101] } : null);
    expect(await applyWith([term("with", 5), term("channel", "web"), term("is", "starred")], conv)).toEqual([
      term("channel", 1),
      term("topic", "t"),
      term("is", "starred"),
    ]);
    expect(await applyWith([term("with", 6)], conv)).toEqual([term("dm", [101])]);
    expect(await applyWith([term("with", 9), term("topic", "x")], conv)).toEqual([term("topic", "x")]);
    await expect(applyWith([term("with", 5), term("with", 6)], conv)).rejects.toThrow("Duplicate 'with' operators.");
  });
});
