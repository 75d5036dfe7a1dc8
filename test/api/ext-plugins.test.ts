// Plugin installs over HTTP: install from a repository kept by the server with the manifest checked
// (a refusal names the field), the plugin object, its bot, settings, secret slots, links, turning
// off, tools, widget defaults, removal and restore within a week, drafts, and ext_plugin events.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { installPlugin } from "../../src/actions/plugins";
import { defaultRealm } from "../../src/http/realm";
import { findUserById } from "../../src/store/users";
import { findRepository } from "../../src/store/repositories";
import { expectError, ok, type Client } from "../helpers/client";
import { drain } from "../helpers/events";
import { startServer, type TestServer } from "../helpers/server";
import { fixtureManifest, install, pluginRepository } from "../fixtures/plugins/helpers";

let s: TestServer;
let admin: Client;
let ann: Client;
let guest: Client;
let repo: number;
let channelId: number;

beforeAll(async () => {
  // Processes are not what this file is about: a long start timeout keeps installs in `starting`.
  s = await startServer({ env: { CONFAB_PLUGINS_START_TIMEOUT_MS: "600000" } });
  admin = await s.newUser({ role: 200, name: "Ada Admin" });
  ann = await s.newUser({ name: "Ann" });
  guest = await s.newUser({ role: 600 });
  const base = fixtureManifest("silent");
  repo = await pluginRepository(s, {
    "no-name": { manifest: { ...base, name: undefined } },
    "bad-title": { manifest: { ...base, provides: { widgets: { builds: { title: 5 } } } } },
    "unknown-field": { manifest: { ...base, provides: { colour: "red" } } },
    "bad-setting": {
      manifest: {
        ...base,
        provides: {
          settings: [
            { key: "a", title: "A", type: "string" },
            { key: "b", title: "B", type: "colour" },
          ],
        },
      },
    },
    "bad-version": { manifest: { ...base, version: "1.0" } },
    "empty-command": { manifest: { ...base, run: { command: [] } } },
    "no-run": { manifest: { ...base, run: undefined } },
    "dup-secret": {
      manifest: {
        ...base,
        provides: {
          secrets: [
            { name: "A", title: "A" },
            { name: "A", title: "again" },
          ],
        },
      },
    },
    "bad-link-kind": { manifest: { ...base, provides: { links: [{ kind: "project", title: "P" }], widgets: { w: { title: "W", link_kinds: ["repo"] } } } } },
    "bad-default": { manifest: { ...base, provides: { settings: [{ key: "n", title: "N", type: "integer", min: 5, default: 2 }] } } },
    "too-new": { manifest: { ...base, requires: { confab: ">=99.0.0" } } },
    "needs-plugin": { manifest: { ...base, requires: { "ci-status": "^1.0.0" } } },
    "not-json": { manifest: "{ nope" },
  });
  channelId = (await ok(admin.post("/channels/create", { name: "builds", subscribers: [admin.userId!] }))).id;
});
afterAll(() => s.stop());

describe("install", () => {
  test("from a local repository: every field of the plugin object, its own bot, an event to members", async () => {
    const qs = await Promise.all([ann, guest].map((c) => ok(c.post("/register", { event_types: ["ext_plugin"] }))));
    const sha = (await findRepository(s.app.db, repo))!.head;
    const { plugin } = await ok(install(admin, repo, "answering"));
    expect(plugin).toEqual({
      id: expect.any(Number),
      plugin: "ci-status",
      name: "CI status",
      version: "1.2.0",
      source_kind: "local",
      source: "",
      source_repository_id: repo,
      source_path: "answering",
      sha,
      manifest: fixtureManifest("answering"),
      state: "waiting",
      detail: "Missing secret 'TOKEN', organization secret 'SHARED_TOKEN'",
      bot_user_id: expect.any(Number),
      installed_by: admin.userId,
      made_by: null,
      made_by_run_id: null,
      made_in_stream_id: null,
      made_in_topic: null,
      made_in_message_id: null,
      settings: { branch: "main", interval: 60 },
      secrets: [
        { name: "TOKEN", title: "CI token", required: true, set: false, hint: "", set_by: null, date_set: null },
        { name: "WEBHOOK", title: "Webhook secret", required: false, set: false, hint: "", set_by: null, date_set: null },
      ],
      links: [],
      disabled: false,
      widget_defaults: { builds: { nav: "shown", column: true }, summary: { nav: "shown", column: false } },
      disabled_tools: [],
      date_installed: expect.any(Number),
      date_removed: null,
    });
    const bot = (await ok(ann.get(`/users/${plugin.bot_user_id}`))).user;
    expect(bot).toMatchObject({ full_name: "CI status", is_bot: true, bot_type: 1, bot_owner_id: null, is_active: true });
    expect(bot.email).toMatch(/^ci-status-bot@/);
    expect(await drain(ann, qs[0]!, "ext_plugin")).toEqual([{ type: "ext_plugin", op: "add", plugin, id: expect.any(Number) }]);
    expect(await drain(guest, qs[1]!, "ext_plugin")).toEqual([]);
    expect((await ok(ann.get("/ext/plugins"))).plugins).toContainEqual(plugin);
    expect((await ok(ann.get(`/ext/plugins/${plugin.id}`))).plugin).toEqual(plugin);
    expect((await ok(ann.post("/register", { fetch_event_types: ["ext_plugin"] }))).ext_plugins).toContainEqual(plugin);
    // Installed again: a second bot, numbered.
    const again = (await ok(install(admin, repo, "answering"))).plugin;
    expect((await ok(ann.get(`/users/${again.bot_user_id}`))).user.email).toMatch(/^ci-status-2-bot@/);
  });

  test("a bad manifest is refused with a message naming the field, and nothing is created", async () => {
    const before = (await ok(admin.get("/ext/plugins"))).plugins.length;
    const cases: [string, string][] = [
      ["no-name", "Invalid manifest: name is missing"],
      ["bad-title", "Invalid manifest: provides.widgets.builds.title must be a string"],
      ["unknown-field", "Invalid manifest: provides.colour is not a manifest field"],
      ["bad-setting", "Invalid manifest: provides.settings[1].type must be one of string, text, integer, number, boolean, choice, channel, url"],
      ["bad-version", "Invalid manifest: version is not in the expected format"],
      ["empty-command", "Invalid manifest: run.command must have at least 1 item"],
      ["no-run", "Invalid manifest: run is missing"],
      ["dup-secret", "Invalid manifest: provides.secrets[1] repeats 'A'"],
      ["bad-link-kind", "Invalid manifest: provides.widgets.w.link_kinds[0] names no link kind in provides.links"],
      ["bad-default", "Invalid manifest: provides.settings[0].default must be at least 5"],
      ["too-new", "Plugin requires confab >=99.0.0; this server is 0.1.0"],
    ];
    for (const [path, msg] of cases) await expectError(install(admin, repo, path), 400, "BAD_REQUEST", msg);
    const { head, name } = (await findRepository(s.app.db, repo))!;
    const sha12 = head.slice(0, 12);
    await expectError(
      install(admin, repo, "not-json"),
      400,
      "BAD_REQUEST",
      `Invalid manifest: manifest.json in repository '${name}'/not-json at ${sha12} is not valid JSON`,
    );
    await expectError(install(admin, repo, "nowhere"), 400, "BAD_REQUEST", `No manifest.json in repository '${name}'/nowhere at ${sha12}`);
    await expectError(install(admin, repo, "silent", { sha: "0123456789abcdef" }), 400, "BAD_REQUEST", `No commit '0123456789abcdef' in repository '${name}'`);
    await expectError(install(admin, 999, "silent"), 404, "BAD_REQUEST", "Repository does not exist");
    await expectError(admin.post("/ext/plugins", { source_kind: "local" }), 400, "BAD_REQUEST", "Missing 'source_repository_id' argument");
    await expectError(admin.post("/ext/plugins", { source_kind: "ftp" }), 400, "BAD_REQUEST", "Invalid source_kind");
    await expectError(install(admin, repo, "../silent"), 400, "BAD_REQUEST", "Invalid source_path");
    expect((await ok(admin.get("/ext/plugins"))).plugins.length).toBe(before);
  });

  test("can_manage_plugins_group (administrators by default) may let members install; never guests", async () => {
    const members = (await ok(s.owner.get("/user_groups"))).user_groups.find((g: any) => g.name === "role:members").id;
    const admins = (await ok(s.owner.get("/user_groups"))).user_groups.find((g: any) => g.name === "role:administrators").id;
    await ok(s.owner.patch("/realm", { can_manage_plugins_group: JSON.stringify({ new: members }) }));
    try {
      const { plugin } = await ok(install(ann, repo, "silent"));
      await ok(ann.delete(`/ext/plugins/${plugin.id}`));
      await ok(ann.post(`/ext/plugins/${plugin.id}/restore`));
      await ok(ann.delete(`/ext/plugins/${plugin.id}`));
      await expectError(install(guest, repo, "silent"), 400, "BAD_REQUEST", "Not allowed for guest users");
    } finally {
      await ok(s.owner.patch("/realm", { can_manage_plugins_group: JSON.stringify({ new: admins }) }));
    }
    await expectError(install(ann, repo, "silent"), 400, "UNAUTHORIZED_PRINCIPAL", "Must be an organization administrator");
  });

  test("requires: another plugin at a version", async () => {
    // ci-status 1.2.0 is installed (first test).
    expect((await ok(install(admin, repo, "needs-plugin"))).plugin.plugin).toBe("silent");
  });

  test("administrators only; guests and bots are refused", async () => {
    await expectError(install(ann, repo, "silent"), 400, "UNAUTHORIZED_PRINCIPAL", "Must be an organization administrator");
    await expectError(install(guest, repo, "silent"), 400, "BAD_REQUEST", "Not allowed for guest users");
    await expectError(guest.get("/ext/plugins"), 400, "BAD_REQUEST", "Not allowed for guest users");
    const b = await ok(s.owner.post("/bots", { full_name: "Admin bot", short_name: "adminbot" }));
    await ok(s.owner.patch(`/users/${b.user_id}`, { role: 200 }));
    const email = (await ok(s.owner.get(`/users/${b.user_id}`))).user.email;
    await expectError(install(s.client(email, b.api_key), repo, "silent"), 400, "BAD_REQUEST", "This endpoint does not accept bot requests.");
  });
});

describe("changing an install", () => {
  let id: number;
  beforeAll(async () => {
    id = (await ok(install(admin, repo, "answering"))).plugin.id;
  });

  test("settings are checked against the manifest's form; null puts one back to its default", async () => {
    const q = await ok(ann.post("/register", { event_types: ["ext_plugin"] }));
    const r = await ok(admin.patch(`/ext/plugins/${id}`, { settings: { interval: 120, mode: "loud", notify: true } }));
    expect(r.plugin.settings).toEqual({ branch: "main", interval: 120, mode: "loud", notify: true });
    expect((await drain(ann, q, "ext_plugin")).map((e: any) => [e.op, e.plugin.settings.interval])).toEqual([["update", 120]]);
    expect((await ok(admin.patch(`/ext/plugins/${id}`, { settings: { interval: null, branch: "dev" } }))).plugin.settings).toEqual({
      branch: "dev",
      interval: 60,
      mode: "loud",
      notify: true,
    });
    const bad: [object, string][] = [
      [{ colour: "red" }, "Unknown setting 'colour'"],
      [{ interval: "often" }, "Setting 'interval' must be an integer"],
      [{ interval: 5 }, "Setting 'interval' must be at least 10"],
      [{ interval: 1.5 }, "Setting 'interval' must be an integer"],
      [{ mode: "silent" }, "Setting 'mode' must be one of quiet, loud"],
      [{ notify: "yes" }, "Setting 'notify' must be a boolean"],
      [{ branch: "b".repeat(51) }, "Setting 'branch' is too long (limit: 50 characters)"],
    ];
    for (const [settings, msg] of bad) await expectError(admin.patch(`/ext/plugins/${id}`, { settings }), 400, "BAD_REQUEST", msg);
    await expectError(ann.patch(`/ext/plugins/${id}`, { settings: { interval: 30 } }), 400, "UNAUTHORIZED_PRINCIPAL", "Must be an organization administrator");
    expect((await ok(ann.get(`/ext/plugins/${id}`))).plugin.settings.branch).toBe("dev");
  });

  test("secret slots: set (hint, who, when) and clear; a missing required one keeps it waiting", async () => {
    const set = (await ok(admin.post(`/ext/plugins/${id}/secrets/TOKEN`, { secret: "tok-0123456789-abcd" }))).plugin;
    expect(set.secrets[0]).toEqual({
      name: "TOKEN",
      title: "CI token",
      required: true,
      set: true,
      hint: "abcd",
      set_by: admin.userId,
      date_set: expect.any(Number),
    });
    expect(set).toMatchObject({ state: "waiting", detail: "Missing organization secret 'SHARED_TOKEN'" });
    expect(JSON.stringify(set)).not.toContain("tok-0123456789-abcd");
    const cleared = (await ok(admin.delete(`/ext/plugins/${id}/secrets/TOKEN`))).plugin;
    expect(cleared.secrets[0]).toMatchObject({ set: false, hint: "", set_by: null, date_set: null });
    expect(cleared.detail).toBe("Missing secret 'TOKEN', organization secret 'SHARED_TOKEN'");
    await expectError(admin.post(`/ext/plugins/${id}/secrets/NOPE`, { secret: "x" }), 400, "BAD_REQUEST", "Unknown secret 'NOPE'");
    await expectError(admin.post(`/ext/plugins/${id}/secrets/TOKEN`, { secret: "" }), 400, "BAD_REQUEST", "secret cannot be empty");
    await expectError(
      admin.post(`/ext/plugins/${id}/secrets/TOKEN`, { secret: "x".repeat(4097) }),
      400,
      "BAD_REQUEST",
      "secret is too long (limit: 4096 characters)",
    );
    await expectError(ann.post(`/ext/plugins/${id}/secrets/TOKEN`, { secret: "x" }), 400, "UNAUTHORIZED_PRINCIPAL", "Must be an organization administrator");
  });

  test("links: a declared kind to a channel or a channel and topic; removed again", async () => {
    const whole = (await ok(admin.post(`/ext/plugins/${id}/links`, { kind: "project", value: "web", stream_id: channelId }))).link;
    expect(whole).toEqual({ id: expect.any(Number), kind: "project", value: "web", stream_id: channelId, topic: null });
    const topic = (await ok(admin.post(`/ext/plugins/${id}/links`, { kind: "project", value: "api", stream_id: channelId, topic: "ci" }))).link;
    expect(topic.topic).toBe("ci");
    expect((await ok(ann.get(`/ext/plugins/${id}`))).plugin.links).toEqual([whole, topic]);
    await expectError(
      admin.post(`/ext/plugins/${id}/links`, { kind: "project", value: "web", stream_id: channelId }),
      400,
      "BAD_REQUEST",
      "The plugin already has this link",
    );
    await expectError(
      admin.post(`/ext/plugins/${id}/links`, { kind: "repo", value: "x", stream_id: channelId }),
      400,
      "BAD_REQUEST",
      "Unknown link kind 'repo'",
    );
    await expectError(admin.post(`/ext/plugins/${id}/links`, { kind: "project", value: "x", stream_id: 9999 }), 400, "BAD_REQUEST", "Invalid channel ID");
    await ok(admin.delete(`/ext/plugins/${id}/links/${topic.id}`));
    await expectError(admin.delete(`/ext/plugins/${id}/links/${topic.id}`), 404, "BAD_REQUEST", "Link does not exist");
    expect((await ok(ann.get(`/ext/plugins/${id}`))).plugin.links).toEqual([whole]);
  });

  test("turning off and on; tools the agent may not use; widget defaults", async () => {
    expect((await ok(admin.patch(`/ext/plugins/${id}`, { disabled: true }))).plugin).toMatchObject({ disabled: true, state: "waiting", detail: "Turned off" });
    expect((await ok(admin.patch(`/ext/plugins/${id}`, { disabled: false }))).plugin).toMatchObject({
      disabled: false,
      state: "waiting",
      detail: expect.stringMatching(/^Missing /),
    });
    expect((await ok(admin.patch(`/ext/plugins/${id}`, { disabled_tools: ["rerun"] }))).plugin.disabled_tools).toEqual(["rerun"]);
    await expectError(admin.patch(`/ext/plugins/${id}`, { disabled_tools: ["deploy"] }), 400, "BAD_REQUEST", "Unknown tool 'deploy'");
    const wd = (await ok(admin.patch(`/ext/plugins/${id}`, { widget_defaults: { summary: { nav: "menu" }, builds: { column: false } } }))).plugin
      .widget_defaults;
    expect(wd).toEqual({ builds: { nav: "shown", column: false }, summary: { nav: "menu", column: false } });
    await expectError(admin.patch(`/ext/plugins/${id}`, { widget_defaults: { nope: { nav: "shown" } } }), 400, "BAD_REQUEST", "Unknown widget 'nope'");
    await expectError(
      admin.patch(`/ext/plugins/${id}`, { widget_defaults: { summary: { nav: "everywhere" } } }),
      400,
      "BAD_REQUEST",
      'widget_defaults["summary"]["nav"] must be one of shown, menu, hidden',
    );
  });
});

describe("removal and restore", () => {
  test("remove stops it and deactivates its bot; restore brings bot, settings, secrets and links back", async () => {
    const { plugin } = await ok(install(admin, repo, "answering", { settings: { mode: "quiet" } }));
    await ok(admin.post(`/ext/plugins/${plugin.id}/secrets/TOKEN`, { secret: "kept-across-removal" }));
    const link = (await ok(admin.post(`/ext/plugins/${plugin.id}/links`, { kind: "project", value: "web", stream_id: channelId }))).link;
    const q = await ok(ann.post("/register", { event_types: ["ext_plugin"] }));
    const removed = (await ok(admin.delete(`/ext/plugins/${plugin.id}`))).plugin;
    expect(removed).toMatchObject({ state: "removed", detail: "", date_removed: expect.any(Number) });
    expect((await ok(ann.get(`/users/${plugin.bot_user_id}`))).user.is_active).toBe(false);
    await expectError(admin.delete(`/ext/plugins/${plugin.id}`), 400, "BAD_REQUEST", "Plugin is already removed");
    await expectError(admin.patch(`/ext/plugins/${plugin.id}`, { disabled: true }), 400, "BAD_REQUEST", "Plugin is already removed");
    await expectError(ann.post(`/ext/plugins/${plugin.id}/restore`), 400, "UNAUTHORIZED_PRINCIPAL", "Must be an organization administrator");
    await expectError(guest.post(`/ext/plugins/${plugin.id}/restore`), 400, "BAD_REQUEST", "Not allowed for guest users");
    const restored = (await ok(admin.post(`/ext/plugins/${plugin.id}/restore`))).plugin;
    expect(restored).toMatchObject({
      state: "waiting",
      detail: "Missing organization secret 'SHARED_TOKEN'",
      date_removed: null,
      settings: { mode: "quiet" },
      links: [link],
    });
    expect(restored.secrets[0]).toMatchObject({ name: "TOKEN", set: true });
    expect((await ok(ann.get(`/users/${plugin.bot_user_id}`))).user.is_active).toBe(true);
    expect((await drain(ann, q, "ext_plugin")).map((e: any) => [e.op, e.plugin.state])).toEqual([
      ["update", "removed"],
      ["update", "waiting"],
    ]);
    await expectError(admin.post(`/ext/plugins/${plugin.id}/restore`), 400, "BAD_REQUEST", "Plugin is not removed");
    await expectError(admin.post("/ext/plugins/9999/restore"), 404, "BAD_REQUEST", "Plugin does not exist");
  });

  test("a week after removal, restore is refused and the install is gone from lists", async () => {
    const { plugin } = await ok(install(admin, repo, "silent"));
    await ok(admin.delete(`/ext/plugins/${plugin.id}`));
    try {
      s.clock.advance(7 * 24 * 3600 - 60);
      expect((await ok(admin.get(`/ext/plugins/${plugin.id}`))).plugin.state).toBe("removed");
      s.clock.advance(120);
      await expectError(
        admin.post(`/ext/plugins/${plugin.id}/restore`),
        400,
        "BAD_REQUEST",
        "This plugin was removed more than a week ago; its removal is final",
      );
      await expectError(admin.get(`/ext/plugins/${plugin.id}`), 404, "BAD_REQUEST", "Plugin does not exist");
      expect((await ok(admin.get("/ext/plugins"))).plugins.map((p: any) => p.id)).not.toContain(plugin.id);
    } finally {
      s.clock.reset();
    }
  });
});

describe("drafts", () => {
  test("a draft made by the agent is seen only by the person it is made for", async () => {
    const realm = await defaultRealm(s.app);
    const annRow = (await findUserById(s.app.db, ann.userId!))!;
    const q = await ok(admin.post("/register", { event_types: ["ext_plugin"] }));
    const qa = await ok(ann.post("/register", { event_types: ["ext_plugin"] }));
    const { plugin } = await installPlugin(
      s.app,
      realm,
      null,
      { source_kind: "local", source_repository_id: repo, source_path: "silent" },
      {
        madeBy: annRow,
        runId: 7,
        streamId: channelId,
        topic: "make me a plugin",
        messageId: null,
      },
    );
    expect(plugin).toMatchObject({
      state: "draft",
      made_by: ann.userId,
      installed_by: ann.userId,
      made_by_run_id: 7,
      made_in_stream_id: channelId,
      made_in_topic: "make me a plugin",
    });
    expect((await ok(ann.get(`/ext/plugins/${plugin.id}`))).plugin.state).toBe("draft");
    await expectError(admin.get(`/ext/plugins/${plugin.id}`), 404, "BAD_REQUEST", "Plugin does not exist");
    expect((await ok(admin.get("/ext/plugins"))).plugins.map((p: any) => p.id)).not.toContain(plugin.id);
    expect(await drain(admin, q, "ext_plugin")).toEqual([]);
    expect((await drain(ann, qa, "ext_plugin")).map((e: any) => [e.op, e.plugin.id])).toEqual([["add", plugin.id]]);
    // Its person may change it, though not an administrator.
    await ok(ann.patch(`/ext/plugins/${plugin.id}`, { disabled_tools: [] }));
  });
});
