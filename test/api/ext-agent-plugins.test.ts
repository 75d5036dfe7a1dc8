// What the agent does with plugins during a run, through the API with its run key: it makes draft
// plugins only their person sees (who installs or discards them), and it calls the tools of running
// plugins, never those in disabled_tools. A real agent program (test/fixtures/agents/test-agent.ts) and
// real plugin processes (test/fixtures/plugins) under the plugin host.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { join } from "node:path";
import { startAgent, type AgentRuntime } from "../../src/runtime/agent";
import { expectError, ok, type Client } from "../helpers/client";
import { drain } from "../helpers/events";
import { startServer, type TestServer } from "../helpers/server";
import { eventually, fixtureManifest, install, pluginRepository } from "../fixtures/plugins/helpers";

const AGENT = join(import.meta.dir, "..", "fixtures", "agents", "test-agent.ts");

/** A plugin serving two tools on its socket: `add` answers the sum, `secret` is turned off in the test. */
const TOOLBOX = `
Bun.serve({
  unix: process.env.EXT_TOOLS_SOCKET,
  async fetch(req) {
    const { input } = await req.json();
    const name = new URL(req.url).pathname.split("/").pop();
    return Response.json(name === "add" ? { sum: input.a + input.b } : { leaked: true });
  },
});
await fetch(process.env.EXT_API_URL + "/users/me", { headers: { Authorization: "Basic " + btoa(process.env.EXT_EMAIL + ":" + process.env.EXT_API_KEY) } });
`;

let s: TestServer;
let rt: AgentRuntime;
let admin: Client;
let ann: Client;
let bob: Client;
let channel: number;
let repo: number;
let agentId: number;

beforeAll(async () => {
  s = await startServer({
    env: { CONFAB_AGENT_COMMAND: JSON.stringify([process.execPath, AGENT]), CONFAB_AGENT_RUN_IDLE_SECONDS: "0", CONFAB_PLUGINS_POLL_MS: "50" },
  });
  rt = await startAgent(s.app);
  admin = await s.newUser({ name: "Ada Admin", role: 200 });
  ann = await s.newUser({ name: "Ann Asker" });
  bob = await s.newUser({ name: "Bob Other" });
  channel = (await ok(ann.post("/channels/create", { name: "builds", subscribers: [ann.userId, bob.userId] }))).id;
  agentId = (await ok(ann.get("/ext/agent"))).agent.user_id;
  const toolbox = {
    ...fixtureManifest("silent"),
    id: "toolbox",
    name: "Toolbox",
    provides: {
      tools: [
        {
          name: "add",
          description: "Adds a and b",
          input: { type: "object", properties: { a: { type: "integer" }, b: { type: "integer" } }, required: ["a", "b"] },
        },
        { name: "secret", description: "Turned off for the agent" },
      ],
    },
    run: { command: [process.execPath, "tools.ts"] },
  };
  repo = await pluginRepository(s, { toolbox: { manifest: toolbox, files: { "tools.ts": TOOLBOX } } });
});
afterAll(async () => {
  await rt.stop();
  await s.stop();
});

/** Asks the agent in a topic and returns what the API answered it (`result: ...`), parsed when JSON. */
async function ask(c: Client, topic: string, text: string): Promise<any> {
  const { id } = await ok(c.post("/messages", { type: "stream", to: channel, topic, content: `@**Agent** ${text}` }));
  const answer = await eventually(
    async () =>
      (
        await ok(
          c.get("/messages", {
            anchor: "newest",
            num_before: 5,
            num_after: 0,
            apply_markdown: false,
            narrow: JSON.stringify([
              { operator: "channel", operand: channel },
              { operator: "topic", operand: topic },
            ]),
          }),
        )
      ).messages,
    (ms: any[]) => ms.some((m) => m.id > id && m.sender_id === agentId),
  );
  const content: string = answer.find((m: any) => m.id > id && m.sender_id === agentId).content;
  expect(content).toStartWith("result: ");
  const result = content.slice("result: ".length);
  return result.startsWith("{") ? { ...JSON.parse(result), asked: id } : result;
}

describe("plugins the agent makes", () => {
  test("a draft only the person who asked sees, recording the run, channel, topic and message", async () => {
    const qa = await ok(ann.post("/register", { event_types: ["ext_plugin"] }));
    const qb = await ok(bob.post("/register", { event_types: ["ext_plugin"] }));
    const made = await ask(ann, "make me a plugin", `plugin ${repo} silent`);
    const run = (await ok(ann.get("/ext/agent/runs", { topic: "make me a plugin" }))).runs[0];
    expect(made.plugin).toMatchObject({
      plugin: "silent",
      state: "draft",
      source_kind: "local",
      source_repository_id: repo,
      source_path: "silent",
      installed_by: ann.userId,
      made_by: ann.userId,
      made_by_run_id: run.id,
      made_in_stream_id: channel,
      made_in_topic: "make me a plugin",
      made_in_message_id: made.asked,
    });
    const id = made.plugin.id;
    expect((await ok(ann.get(`/ext/plugins/${id}`))).plugin.state).toBe("draft");
    // Invisible to everyone else, administrators included.
    for (const other of [bob, admin]) {
      expect((await ok(other.get("/ext/plugins"))).plugins.map((p: any) => p.id)).not.toContain(id);
      await expectError(other.get(`/ext/plugins/${id}`), 404, "BAD_REQUEST", /.+/);
    }
    const heard = async (c: Client, q: any) => (await drain(c, q, "ext_plugin")).filter((e) => (e.plugin?.id ?? e.install_id) === id);
    expect((await heard(ann, qa)).map((e: any) => [e.op, e.plugin.state])).toEqual([["add", "draft"]]);
    expect(await heard(bob, qb)).toEqual([]);
    // Its person installs it; from then on it follows the normal states and everyone sees it.
    await expectError(bob.post(`/ext/plugins/${id}/install`), 404, "BAD_REQUEST", /.+/);
    const installed = (await ok(ann.post(`/ext/plugins/${id}/install`))).plugin;
    expect(installed.state).not.toBe("draft");
    expect(installed.made_by).toBe(ann.userId);
    expect((await ok(bob.get(`/ext/plugins/${id}`))).plugin.id).toBe(id);
    expect((await heard(bob, qb)).map((e: any) => e.op)).toContain("add");
  });

  test("its person may discard a draft instead", async () => {
    const made = await ask(ann, "another plugin", `plugin ${repo} silent`);
    await expectError(bob.delete(`/ext/plugins/${made.plugin.id}`), 404, "BAD_REQUEST", /.+/);
    const discarded = (await ok(ann.delete(`/ext/plugins/${made.plugin.id}`))).plugin;
    // A discarded draft never becomes visible to anyone else, and is gone for its person too.
    expect(discarded.state).toBe("draft");
    expect(discarded.date_removed).toEqual(expect.any(Number));
    for (const c of [ann, bob, admin]) {
      expect((await ok(c.get("/ext/plugins"))).plugins.map((p: any) => p.id)).not.toContain(made.plugin.id);
      await expectError(c.get(`/ext/plugins/${made.plugin.id}`), 404, "BAD_REQUEST", /.+/);
    }
  });

  test("only the agent's bot with the key of a live run may make one", async () => {
    const params = { source_repository_id: repo, source_path: "silent" };
    const refusal = "Only the agent's bot can do this, with the API key of a run in progress";
    await expectError(admin.post("/ext/agent/plugins", params), 400, "BAD_REQUEST", refusal);
    const bots = (await ok(admin.post("/register", { fetch_event_types: ["realm_bot"] }))).realm_bots;
    const agentBot = bots.find((b: any) => b.user_id === agentId);
    await expectError(s.client(agentBot.email, agentBot.api_key).post("/ext/agent/plugins", params), 400, "BAD_REQUEST", refusal);
    await expectError(s.client(agentBot.email, agentBot.api_key).get("/ext/agent/tools"), 400, "BAD_REQUEST", refusal);
  });
});

describe("tools", () => {
  test("the agent calls a running plugin's tools through the API; a disabled tool is refused and not listed", async () => {
    const { plugin } = await ok(install(admin, repo, "toolbox"));
    await ok(admin.patch(`/ext/plugins/${plugin.id}`, { disabled_tools: JSON.stringify(["secret"]) }));
    await eventually(
      async () => (await ok(admin.get(`/ext/plugins/${plugin.id}`))).plugin.state,
      (st) => st === "running",
    );
    const listed = await ask(ann, "tools", "tools");
    expect(listed.tools.filter((t: any) => t.install_id === plugin.id)).toEqual([
      { install_id: plugin.id, plugin: "toolbox", name: "add", description: "Adds a and b", input: expect.objectContaining({ required: ["a", "b"] }) },
    ]);
    const sum = await ask(ann, "tools", `tool ${plugin.id} add {"a": 2, "b": 40}`);
    expect(sum.output).toEqual({ sum: 42 });
    expect(await ask(ann, "tools", `tool ${plugin.id} secret {}`)).toBe("Tool 'secret' is turned off for the agent");
    expect(await ask(ann, "tools", `tool ${plugin.id} add {"a": "two", "b": 1}`)).toBe("Invalid input for tool 'add': /a must be integer");
    expect(await ask(ann, "tools", `tool ${plugin.id} nope {}`)).toBe("Unknown tool 'nope'");
  });
});
