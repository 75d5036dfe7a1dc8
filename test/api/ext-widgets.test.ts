// Widgets over HTTP: pushes by a plugin's own bot checked against the contract and the manifest, the
// latest document per widget and scope with `version` counting changes, ext_widget events to who sees
// the scope at most once every two seconds per scope with nothing lost, the read endpoint, per-user
// preferences exactly as the contract says, and register state.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { expectError, ok, type Client } from "../helpers/client";
import { drain } from "../helpers/events";
import { startServer, type TestServer } from "../helpers/server";
import { botClient, install, pluginRepository } from "../fixtures/plugins/helpers";

let s: TestServer;
let admin: Client;
let ann: Client;
let bob: Client;
let guest: Client;
let bot: Client;
let otherBot: Client;
let id: number;
let web: number; // a link to a public channel
let ops: number; // a link to a private channel ann is in, bob is not
let otherLink: number; // a link of another plugin

beforeAll(async () => {
  s = await startServer();
  admin = await s.newUser({ role: 200 });
  ann = await s.newUser();
  bob = await s.newUser();
  guest = await s.newUser({ role: 600 });
  const repo = await pluginRepository(s);
  const pub = (await ok(admin.post("/channels/create", { name: "builds", subscribers: [admin.userId!, ann.userId!, guest.userId!] }))).id;
  const priv = (await ok(admin.post("/channels/create", { name: "ops", subscribers: [admin.userId!, ann.userId!], invite_only: true }))).id;
  const p = (await ok(install(admin, repo, "answering"))).plugin;
  id = p.id;
  web = (await ok(admin.post(`/ext/plugins/${id}/links`, { kind: "project", value: "web", stream_id: pub }))).link.id;
  ops = (await ok(admin.post(`/ext/plugins/${id}/links`, { kind: "project", value: "ops", stream_id: priv }))).link.id;
  bot = await botClient(s, admin, p.bot_user_id);
  const other = (await ok(install(admin, repo, "answering"))).plugin;
  otherLink = (await ok(admin.post(`/ext/plugins/${other.id}/links`, { kind: "project", value: "web", stream_id: pub }))).link.id;
  otherBot = await botClient(s, admin, other.bot_user_id);
});
afterAll(() => s.stop());

const queue = (c: Client) => ok(c.post("/register", { event_types: ["ext_widget", "ext_widget_preference"] }));
const events = (c: Client, q: any, type = "ext_widget") => drain(c, q, type);
const DOC = {
  version: 1,
  data: { failing: 2 },
  rest: { figure: "failing", sizer: "count" },
  blocks: [{ type: "list", label: "Builds", items: [{ key: "b1", title: "Build 1" }] }],
};

describe("pushing", () => {
  test("a document: kept per scope, counted, and heard by who sees the scope", async () => {
    const [qa, qb, qg] = await Promise.all([queue(ann), queue(bob), queue(guest)]);
    expect(await ok(bot.post("/ext/widgets", { widget: "builds", link_id: web, document: DOC }))).toMatchObject({ version: 1 });
    const [ea, eb] = [await events(ann, qa), await events(bob, qb)];
    const expected = { type: "ext_widget", install_id: id, widget: "builds", link_id: web, item: "", version: 1, document: DOC, id: expect.any(Number) };
    expect(ea).toEqual([expected]);
    expect(eb).toEqual([expected]); // a public channel: every member sees it
    expect(await events(guest, qg)).toEqual([]); // guests see no widgets
    // The private channel's link: only its readers.
    expect((await ok(bot.post("/ext/widgets", { widget: "builds", link_id: ops, document: DOC }))).version).toBe(1);
    expect((await events(ann, qa)).map((e: any) => e.link_id)).toEqual([web, ops]);
    expect((await events(bob, qb)).map((e: any) => e.link_id)).toEqual([web]);
    // An organization widget, and an item's own document.
    expect((await ok(bot.post("/ext/widgets", { widget: "summary", document: { data: { ok: true } } }))).version).toBe(1);
    expect((await ok(bot.post("/ext/widgets", { widget: "builds", link_id: web, item: "b1", document: { data: { log: "…" } } }))).version).toBe(1);
    expect((await events(bob, qb)).map((e: any) => [e.widget, e.link_id, e.item])).toEqual([
      ["builds", web, ""],
      ["summary", null, ""],
      ["builds", web, "b1"],
    ]);
  });

  test("data lands in the document's data; a push that changes nothing is not a change", async () => {
    const r = await ok(bot.post("/ext/widgets", { widget: "summary", data: { builds: 3 } }));
    expect(r.version).toBe(2);
    expect((await ok(ann.get(`/ext/widgets/${id}/summary`))).document).toEqual({ data: { ok: true, builds: 3 } });
    expect((await ok(bot.post("/ext/widgets", { widget: "summary", data: { builds: 3 } }))).version).toBe(2);
    expect((await ok(bot.post("/ext/widgets", { widget: "summary", data: { ok: null } }))).version).toBe(3);
    expect((await ok(ann.get(`/ext/widgets/${id}/summary`))).document).toEqual({ data: { builds: 3 } });
    // A whole document replaces the previous one, and data given with it lands in its data.
    expect((await ok(bot.post("/ext/widgets", { widget: "summary", document: { data: { a: 1 } }, data: { b: 2 } }))).version).toBe(4);
    expect((await ok(ann.get(`/ext/widgets/${id}/summary`))).document).toEqual({ data: { a: 1, b: 2 } });
    // Data for a scope with no document yet starts one.
    expect((await ok(bot.post("/ext/widgets", { widget: "summary", item: "fresh", data: { n: 1 } }))).version).toBe(1);
  });

  test("only the plugin's own bot, for its own widgets and links; the document checked", async () => {
    const only = "Only a plugin's own bot can push its widgets";
    await expectError(ann.post("/ext/widgets", { widget: "summary", document: {} }), 400, "BAD_REQUEST", only);
    await expectError(admin.post("/ext/widgets", { widget: "summary", document: {} }), 400, "BAD_REQUEST", only);
    const plain = await ok(s.owner.post("/bots", { full_name: "Plain", short_name: "plain" }));
    const plainBot = s.client((await ok(s.owner.get(`/users/${plain.user_id}`))).user.email, plain.api_key);
    await expectError(plainBot.post("/ext/widgets", { widget: "summary", document: {} }), 400, "BAD_REQUEST", only);
    await expectError(otherBot.post("/ext/widgets", { widget: "builds", link_id: web, document: {} }), 404, "BAD_REQUEST", "Link does not exist");
    expect((await ok(otherBot.post("/ext/widgets", { widget: "builds", link_id: otherLink, document: {} }))).version).toBe(1);
    const bad: [Record<string, unknown>, string][] = [
      [{ widget: "nope", document: {} }, "Unknown widget 'nope'"],
      [{ widget: "builds", document: {} }, "Missing 'link_id' argument"],
      [{ widget: "summary", link_id: web, document: {} }, "Widget 'summary' belongs to the organization, not to a link"],
      [{ widget: "summary" }, "At least one of the following arguments must be present: document, data"],
      [{ widget: "summary", document: { colour: "red" } }, 'document["colour"] is not a widget document field'],
      [{ widget: "summary", document: { version: 0 } }, 'document["version"] must be a positive integer'],
      [{ widget: "summary", document: { data: [] } }, 'document["data"] is not a dict'],
      [{ widget: "builds", link_id: web, document: { rest: { figure: "speed" } } }, "Unknown figure 'speed' for widget 'builds'"],
      [{ widget: "summary", document: { rest: { figure: 3 } } }, 'document["rest"]["figure"] is not a string'],
      [
        { widget: "summary", document: { blocks: [{ type: "carousel", items: [] }] } },
        'document["blocks"][0]["type"] must be one of list, table, stats, text, chart',
      ],
      [{ widget: "summary", document: { blocks: [{ type: "list" }] } }, 'document["blocks"][0]["items"] is not a list'],
      [{ widget: "summary", document: { blocks: [{ type: "list", items: [1] }] } }, 'document["blocks"][0]["items"][0] is not a dict'],
      [{ widget: "summary", document: { blocks: [{ type: "list", items: [], color: 1 }] } }, 'document["blocks"][0]["color"] is not a widget document field'],
      [{ widget: "summary", item: "i".repeat(201), document: {} }, "item is too long (limit: 200 characters)"],
      [{ widget: "summary", document: { data: { big: "x".repeat(300_000) } } }, "document is too large (limit: 262144 bytes)"],
    ];
    for (const [params, msg] of bad) await expectError(bot.post("/ext/widgets", params), 400, "BAD_REQUEST", msg);
    await expectError(bot.post("/ext/widgets", { widget: "builds", link_id: 99999, document: {} }), 404, "BAD_REQUEST", "Link does not exist");
    await expectError(bot.post("/ext/widgets", { widget: "summary", document: "[1]" }), 400, "BAD_REQUEST", "document is not a dict");
  });

  test("at most one event per scope every two seconds; the latest wins and no push is lost", async () => {
    const q = await queue(bob);
    const started = Date.now();
    let last = 0;
    for (let n = 1; n <= 12; n++) last = (await ok(bot.post("/ext/widgets", { widget: "summary", item: "burst", data: { n } }))).version;
    // Another scope is not held back by the first.
    await ok(bot.post("/ext/widgets", { widget: "summary", item: "other", data: { n: 1 } }));
    const first = await events(bob, q);
    expect(first.filter((e: any) => e.item === "burst").map((e: any) => e.version)).toEqual([1]);
    expect(first.filter((e: any) => e.item === "other").length).toBe(1);
    // Every push was kept: the document is the last one.
    expect((await ok(bob.get(`/ext/widgets/${id}/summary`, { item: "burst" }))).document).toEqual({ data: { n: 12 } });
    // The trailing event carries the latest document, not before two seconds have passed.
    const timed: { at: number; e: any }[] = [];
    let lastId = -1;
    while (Date.now() - started < 4500 && !timed.length) {
      const r = await ok(bob.get("/events", { queue_id: q.queue_id, last_event_id: lastId, dont_block: true }));
      for (const e of r.events) {
        lastId = Math.max(lastId, e.id);
        if (e.type === "ext_widget" && e.item === "burst" && e.version !== 1) timed.push({ at: Date.now(), e });
      }
      await Bun.sleep(50);
    }
    expect(timed.map((t) => t.e.version)).toEqual([last]);
    expect(timed[0]!.e.document).toEqual({ data: { n: 12 } });
    expect(timed[0]!.at - started).toBeGreaterThanOrEqual(1900);
    // And a push in the next window is held again until two seconds after that event.
    await ok(bot.post("/ext/widgets", { widget: "summary", item: "burst", data: { n: 13 } }));
    const held = (await events(bob, q)).filter((e: any) => e.item === "burst"); // events up to lastId were acknowledged above
    expect(held.map((e: any) => e.version)).toEqual([last]);
  });
});

describe("reading and preferences", () => {
  test("GET: the latest document of a scope and the caller's preference", async () => {
    const r = await ok(ann.get(`/ext/widgets/${id}/builds`, { link_id: web }));
    expect(r).toMatchObject({ document: DOC, version: 1 });
    expect(r.preference).toEqual({ shown: true, position: 0, label: "", filters: {}, alerts: {}, in_column: true, seen: null, rest_figure: "failing" });
    expect(await ok(ann.get(`/ext/widgets/${id}/builds`, { link_id: web, item: "never" }))).toMatchObject({ document: null, version: 0 });
    await expectError(bob.get(`/ext/widgets/${id}/builds`, { link_id: ops }), 404, "BAD_REQUEST", "Link does not exist");
    await expectError(ann.get(`/ext/widgets/${id}/builds`), 400, "BAD_REQUEST", "Missing 'link_id' argument");
    await expectError(ann.get(`/ext/widgets/${id}/nope`), 400, "BAD_REQUEST", "Unknown widget 'nope'");
    await expectError(guest.get(`/ext/widgets/${id}/summary`), 400, "BAD_REQUEST", "Not allowed for guest users");
  });

  test("PATCH preference: each field for the caller alone, with an event to their clients", async () => {
    const [qa, qb] = await Promise.all([queue(ann), queue(bob)]);
    const path = `/ext/widgets/${id}/builds/preference`;
    expect(
      await ok(
        ann.patch(path, {
          shown: false,
          position: 5,
          label: "CI",
          filters: { status: "failing" },
          alerts: { failing: 3 },
          in_column: false,
          rest_figure: "total",
        }),
      ),
    ).toEqual(expect.objectContaining({ result: "success", msg: "" }));
    const pref = {
      shown: false,
      position: 5,
      label: "CI",
      filters: { status: "failing" },
      alerts: { failing: 3 },
      in_column: false,
      seen: null,
      rest_figure: "total",
    };
    expect(await events(ann, qa, "ext_widget_preference")).toEqual([
      { type: "ext_widget_preference", install_id: id, widget: "builds", preference: pref, id: expect.any(Number) },
    ]);
    expect(await events(bob, qb, "ext_widget_preference")).toEqual([]);
    expect((await ok(ann.get(`/ext/widgets/${id}/builds`, { link_id: web }))).preference).toEqual(pref);
    expect((await ok(bob.get(`/ext/widgets/${id}/builds`, { link_id: web }))).preference.label).toBe("");
    // Fields left out stay; `{}` filters every row again; an empty label means its own.
    await ok(ann.patch(path, { filters: {}, label: "" }));
    expect((await ok(ann.get(`/ext/widgets/${id}/builds`, { link_id: web }))).preference).toEqual({ ...pref, filters: {}, label: "" });
    // seen: the first opening is kept; false shows it as new again.
    await ok(ann.patch(path, { seen: true }));
    const seen = (await ok(ann.get(`/ext/widgets/${id}/builds`, { link_id: web }))).preference.seen;
    expect(seen).toEqual(expect.any(Number));
    await s.clock.during(3600, () => ok(ann.patch(path, { seen: true })));
    expect((await ok(ann.get(`/ext/widgets/${id}/builds`, { link_id: web }))).preference.seen).toBe(seen);
    await ok(ann.patch(path, { seen: false }));
    expect((await ok(ann.get(`/ext/widgets/${id}/builds`, { link_id: web }))).preference.seen).toBeNull();
    // reset: back to the team's values, which follow widget_defaults.
    await ok(ann.patch(path, { reset: ["shown", "position", "alerts", "in_column", "rest_figure"] }));
    expect((await ok(ann.get(`/ext/widgets/${id}/builds`, { link_id: web }))).preference).toEqual({
      shown: true,
      position: 0,
      label: "",
      filters: {},
      alerts: {},
      in_column: true,
      seen: null,
      rest_figure: "failing",
    });
    await ok(admin.patch(`/ext/plugins/${id}`, { widget_defaults: { builds: { nav: "menu", column: false } } }));
    expect((await ok(ann.get(`/ext/widgets/${id}/builds`, { link_id: web }))).preference).toMatchObject({ shown: false, in_column: false });
  });

  test("PATCH preference: only what the manifest declares, within bounds; not guests, not bots", async () => {
    const path = `/ext/widgets/${id}/builds/preference`;
    const bad: [Record<string, unknown>, string][] = [
      [{ position: 1000 }, "position is too large"],
      [{ position: -1 }, "position is too small"],
      [{ label: "l".repeat(25) }, "label is too long (limit: 24 characters)"],
      [{ filters: { colour: "red" } }, "Unknown facet 'colour' for widget 'builds'"],
      [{ filters: { status: "broken" } }, 'filters["status"] must be one of failing, passing'],
      [{ alerts: { slow: 1 } }, "Unknown alert 'slow' for widget 'builds'"],
      [{ alerts: { failing: 0 } }, 'alerts["failing"] must be a number from 1 to 100'],
      [{ alerts: { failing: 101 } }, 'alerts["failing"] must be a number from 1 to 100'],
      [{ rest_figure: "speed" }, "Unknown figure 'speed' for widget 'builds'"],
      [{ reset: ["colour"] }, "Invalid field in reset: 'colour'"],
      [{ shown: "maybe" }, "shown is not valid JSON"],
    ];
    for (const [params, msg] of bad) await expectError(ann.patch(path, params), 400, "BAD_REQUEST", msg);
    expect(await ok(ann.patch(path, { position: 999, label: "l".repeat(24), alerts: { failing: 100 } }))).toMatchObject({ result: "success" });
    await expectError(ann.patch(`/ext/widgets/${id}/nope/preference`, { shown: true }), 400, "BAD_REQUEST", "Unknown widget 'nope'");
    await expectError(ann.patch(`/ext/widgets/9999/builds/preference`, { shown: true }), 404, "BAD_REQUEST", "Plugin does not exist");
    await expectError(guest.patch(path, { shown: true }), 400, "BAD_REQUEST", "Not allowed for guest users");
    await expectError(bot.patch(path, { shown: true }), 400, "BAD_REQUEST", "This endpoint does not accept bot requests.");
  });

  test("register: the documents of the scopes one sees, and a preference for every widget", async () => {
    const state = await ok(bob.post("/register", { fetch_event_types: ["ext_widget", "ext_widget_preference"] }));
    const mine = state.ext_widgets.filter((d: any) => d.install_id === id);
    expect(mine.map((d: any) => [d.widget, d.link_id, d.item]).sort()).toEqual(
      [
        ["builds", web, ""],
        ["builds", web, "b1"],
        ["summary", null, ""],
        ["summary", null, "burst"],
        ["summary", null, "fresh"],
        ["summary", null, "other"],
      ].sort(),
    );
    expect(mine.find((d: any) => d.widget === "builds" && d.item === "")).toEqual({
      install_id: id,
      widget: "builds",
      link_id: web,
      item: "",
      version: 1,
      document: DOC,
    });
    expect(state.ext_widget_preferences.filter((p: any) => p.install_id === id).map((p: any) => p.widget)).toEqual(["builds", "summary"]);
    const annState = await ok(ann.post("/register", { fetch_event_types: ["ext_widget"] }));
    expect(annState.ext_widgets.some((d: any) => d.link_id === ops)).toBe(true);
    expect(await ok(guest.post("/register", { fetch_event_types: ["ext_widget", "ext_widget_preference"] }))).toMatchObject({
      ext_widgets: [],
      ext_widget_preferences: [],
    });
  });

  test("a removed link takes its documents with it", async () => {
    await ok(admin.delete(`/ext/plugins/${id}/links/${ops}`));
    await expectError(ann.get(`/ext/widgets/${id}/builds`, { link_id: ops }), 404, "BAD_REQUEST", "Link does not exist");
    const state = await ok(ann.post("/register", { fetch_event_types: ["ext_widget"] }));
    expect(state.ext_widgets.some((d: any) => d.link_id === ops)).toBe(false);
  });
});
