// The organization's agent over HTTP, with a real agent program (test/fixtures/agents/test-agent.ts):
// runs started by a mention or a direct message, turns, the run's environment (secrets and nothing of
// the server's), date_used, posting with is_agent_message, masking, run keys, failures, timeouts,
// cancelling, events, and no process left behind.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expectError, ok, type Client } from "../helpers/client";
import { waitFor } from "../helpers/wait";
import { eventsUntil } from "../helpers/events";
import { startServer, type TestServer } from "../helpers/server";
import { startAgent, type AgentRuntime } from "../../src/runtime/agent";

/** The agent's first message in a channel's newest ten, waited for (raw Markdown). */
const agentAnswer = (c: Client, channelId: number, agentId: number) =>
  waitFor(
    "the agent's answer",
    async () => {
      const { messages } = await ok(
        c.get("/messages", {
          anchor: "newest",
          num_before: 10,
          num_after: 0,
          apply_markdown: false,
          narrow: JSON.stringify([{ operator: "channel", operand: channelId }]),
        }),
      );
      return messages.find((m: any) => m.sender_id === agentId);
    },
    15_000,
  );

const AGENT = join(import.meta.dir, "..", "fixtures", "agents", "test-agent.ts");
const MARKER = "CONFAB_AGENT_TEST_LEAK";
process.env[MARKER] = "the server's own environment"; // must never reach a run

let s: TestServer;
let rt: AgentRuntime;
let ann: Client;
let bob: Client;
let admin: Client;
let guest: Client;
let agentId: number;
let channel: number;

beforeAll(async () => {
  s = await startServer({
    env: {
      CONFAB_AGENT_COMMAND: JSON.stringify([process.execPath, AGENT]),
      CONFAB_AGENT_TURN_TIMEOUT_SECONDS: "4",
      CONFAB_AGENT_RUN_IDLE_SECONDS: "60",
    },
  });
  rt = await startAgent(s.app);
  ann = await s.newUser({ name: "Ann Asker" });
  bob = await s.newUser({ name: "Bob Bystander" });
  admin = await s.newUser({ name: "Ada Admin", role: 200 });
  guest = await s.newUser({ name: "Gus Guest", role: 600 });
  channel = (await ok(ann.post("/channels/create", { name: "agents", subscribers: [ann.userId, bob.userId, admin.userId, guest.userId] }))).id;
  agentId = (await ok(ann.get("/ext/agent"))).agent.user_id;
});
afterAll(async () => {
  await rt.stop();
  await s.stop();
});

const say = (c: Client, topic: string, content: string) => ok(c.post("/messages", { type: "stream", to: channel, topic, content }));
const mention = (c: Client, topic: string, text: string) => say(c, topic, `@**Agent** ${text}`);

/** The agent's messages in a topic (raw Markdown), waiting until there are at least `n`. */
async function agentMessages(c: Client, narrow: unknown[], n: number, timeoutMs = 15_000): Promise<any[]> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const { messages } = await ok(
      c.get("/messages", { anchor: "newest", num_before: 100, num_after: 0, apply_markdown: false, narrow: JSON.stringify(narrow) }),
    );
    const mine = messages.filter((m: any) => m.sender_id === agentId);
    if (mine.length >= n) return mine;
    if (Date.now() > until) throw new Error(`expected ${n} agent messages, got ${mine.length}: ${JSON.stringify(messages.map((m: any) => m.content))}`);
    await Bun.sleep(50);
  }
}
const inTopic = (topic: string) => [
  { operator: "channel", operand: channel },
  { operator: "topic", operand: topic },
];
const report = (m: any) => JSON.parse(/```json\n([\s\S]*)\n```/.exec(m.content)![1]!);
const decode = (env: Record<string, string>) => Object.fromEntries(Object.entries(env).map(([k, v]) => [k, Buffer.from(v, "base64").toString()]));

const runOf = async (c: Client, id: number) => (await ok(c.get(`/ext/agent/runs/${id}`))).run;
/** Whether a process runs (a zombie waiting for its parent to collect it has ended). */
const alive = (pid: number) => {
  try {
    return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, "utf8"));
  } catch {
    return false;
  }
};

describe("the agent's bot", () => {
  test("GET /ext/agent: an embedded bot, on when agent.command is set; guests and bots refused", async () => {
    const { agent } = await ok(bob.get("/ext/agent"));
    expect(agent).toMatchObject({ user_id: agentId, full_name: "Agent", is_active: true, enabled: true });
    const user = (await ok(bob.get(`/users/${agentId}`))).user;
    expect(user).toMatchObject({ is_bot: true, bot_type: 4, full_name: "Agent" });
    await expectError(guest.get("/ext/agent"), 400, "BAD_REQUEST", "Not allowed for guest users");
  });
});

describe("runs and their environment", () => {
  let first: any;
  let key: string;

  test("a mention starts a run; the turn's environment is exactly the secrets, EXT_, PATH, HOME and the locale", async () => {
    const token = "tok_0123456789abcdefWXYZ";
    await ok(ann.post("/ext/secrets", { name: "API_TOKEN", secret: token, note: "for the agent" }));
    const q = await ok(bob.post("/register", { event_types: ["ext_agent_run", "ext_secret"] }));
    const asked = await mention(ann, "env", "env");
    const [m] = await agentMessages(ann, inTopic("env"), 1);
    expect(m.is_agent_message).toBe(true);
    expect(m.client).toBe("Agent");
    first = report(m);
    const env = decode(first.env);
    key = env.EXT_API_KEY!;
    const locale = Object.keys(process.env).filter((k) => k === "LANG" || k === "LANGUAGE" || k.startsWith("LC_"));
    const expected = [
      "API_TOKEN",
      "EXT_API_KEY",
      "EXT_API_URL",
      "EXT_EMAIL",
      "EXT_MESSAGE_ID",
      "EXT_RUN_ID",
      "EXT_SITE",
      "EXT_STREAM_ID",
      "EXT_TOPIC",
      "EXT_TURN",
      "HOME",
      "PATH",
      ...locale,
    ];
    expect(Object.keys(env).sort()).toEqual(expected.sort());
    expect(env[MARKER]).toBeUndefined();
    expect(env).toMatchObject({
      API_TOKEN: token,
      EXT_SITE: s.url,
      EXT_API_URL: `${s.url}/api/v1`,
      EXT_EMAIL: (await ok(ann.get("/ext/agent"))).agent.email,
      EXT_RUN_ID: String(first.run.id),
      EXT_TURN: "1",
      EXT_MESSAGE_ID: String(asked.id),
      EXT_STREAM_ID: String(channel),
      EXT_TOPIC: "env",
      PATH: process.env.PATH,
    });
    // The run key is the agent bot's key while the run lives.
    expect(first.me).toEqual({ result: "success", user_id: agentId });
    expect(first.turn).toBe(1);
    expect(first.run).toMatchObject({ state: "running", requested_by: ann.userId, stream_id: channel, topic: "env", message_id: asked.id, turns: 1 });

    // date_used set, and members heard of it; the run's start reached the bystander.
    const secret = (await ok(bob.get("/ext/secrets"))).secrets.find((x: any) => x.name === "API_TOKEN");
    expect(secret.date_used).toBeGreaterThanOrEqual(secret.date_added);
    const events = await eventsUntil(bob, q, "the run's exit", (evs) => evs.some((e) => e.type === "ext_agent_run" && e.run.exit_status === 0), 15_000);
    expect(events.filter((e: any) => e.type === "ext_secret")).toContainEqual(
      expect.objectContaining({ op: "update", secret: expect.objectContaining({ name: "API_TOKEN", date_used: secret.date_used }) }),
    );
    const runEvents = events.filter((e: any) => e.type === "ext_agent_run");
    expect(runEvents[0]).toMatchObject({ op: "add", run: { id: first.run.id, state: "running", turns: 0 } });
    expect(runEvents.at(-1)).toMatchObject({ op: "update", run: { id: first.run.id, state: "running", turns: 1, exit_status: 0, ended: null } });
  });

  test("a mention in the same topic is the run's next turn, and a secret added meanwhile is there", async () => {
    await ok(bob.post("/ext/secrets", { name: "LATER_SECRET", secret: "added-between-turns" }));
    await mention(bob, "env", "env");
    const msgs = await agentMessages(ann, inTopic("env"), 2);
    const second = report(msgs[1]);
    const env = decode(second.env);
    expect(second.turn).toBe(2);
    expect(second.run.id).toBe(first.run.id);
    expect(env.LATER_SECRET).toBe("added-between-turns");
    expect(env.EXT_TURN).toBe("2");
    expect(env.EXT_API_KEY).toBe(key);
    // The conversation so far: the two mentions and the agent's first answer.
    expect(second.messages).toBe(3);
    expect((await ok(bob.get("/ext/secrets"))).secrets.find((x: any) => x.name === "LATER_SECRET").date_used).toEqual(expect.any(Number));
  });

  test("listing and cancelling: only the asker or an administrator; the key dies with the run", async () => {
    const runs = (await ok(bob.get("/ext/agent/runs", { stream_id: channel, topic: "env" }))).runs;
    expect(runs).toEqual([expect.objectContaining({ id: first.run.id, state: "running", turns: 2, exit_status: 0 })]);
    expect((await ok(bob.get("/ext/agent/runs", { requested_by: bob.userId }))).runs).toEqual([]);
    await expectError(bob.post(`/ext/agent/runs/${first.run.id}/cancel`), 400, "BAD_REQUEST", "Insufficient permission");
    await expectError(guest.get("/ext/agent/runs"), 400, "BAD_REQUEST", "Not allowed for guest users");
    const { run } = await ok(ann.post(`/ext/agent/runs/${first.run.id}/cancel`));
    expect(run).toMatchObject({ id: first.run.id, state: "cancelled", ended: expect.any(Number), exit_status: 0 });
    await expectError(ann.post(`/ext/agent/runs/${first.run.id}/cancel`), 400, "BAD_REQUEST", "The run has already ended");
    await expectError(ann.get("/ext/agent/runs/999999"), 404, "BAD_REQUEST", "Run does not exist");
    const notice = (await agentMessages(ann, inTopic("env"), 3)).at(-1);
    expect(notice.content).toBe(`Run ${first.run.id} was cancelled by @_**Ann Asker|${ann.userId}**.`);
    const email = (await ok(ann.get("/ext/agent"))).agent.email;
    await expectError(s.client(email, key).get("/users/me"), 401, "INVALID_API_KEY", "Invalid API key");
    // A new mention there starts a new run.
    await mention(ann, "env", "hello again");
    expect((await agentMessages(ann, inTopic("env"), 4)).at(-1).content).toBe("you said: hello again");
    const latest = (await ok(ann.get("/ext/agent/runs", { topic: "env", limit: 1 }))).runs[0];
    expect(latest.id).toBeGreaterThan(first.run.id);
  });

  test("what the agent posts has secret values masked", async () => {
    await mention(ann, "masking", "echo API_TOKEN");
    const [m] = await agentMessages(ann, inTopic("masking"), 1);
    expect(m.content).toBe("API_TOKEN is ***");
  });
});

describe("conversations and people", () => {
  test("a direct message to the agent starts a run there, answered in the same conversation", async () => {
    const { id } = await ok(bob.post("/messages", { type: "direct", to: JSON.stringify([agentId]), content: "hi agent" }));
    const [m] = await agentMessages(bob, [{ operator: "dm", operand: [agentId] }], 1);
    expect(m.content).toBe("you said: hi agent");
    expect(m.is_agent_message).toBe(true);
    expect(m.display_recipient.map((r: any) => r.id).sort()).toEqual([bob.userId, agentId].sort());
    const run = (await ok(bob.get("/ext/agent/runs", { requested_by: bob.userId }))).runs[0];
    expect(run).toMatchObject({ stream_id: null, topic: null, message_id: id });
    // Someone outside that conversation does not see the run.
    expect((await ok(ann.get("/ext/agent/runs", { requested_by: bob.userId }))).runs).toEqual([]);
    await expectError(ann.get(`/ext/agent/runs/${run.id}`), 404, "BAD_REQUEST", "Run does not exist");
  });

  test("messages that do not mention the agent start nothing; guests are told they cannot", async () => {
    await say(ann, "quiet", "just talking about the Agent");
    await mention(guest, "guests", "env");
    const [m] = await agentMessages(guest, inTopic("guests"), 1);
    expect(m.content).toBe("Guests cannot ask the agent for a run.");
    expect((await ok(ann.get("/ext/agent/runs", { topic: "quiet" }))).runs).toEqual([]);
    expect((await ok(ann.get("/ext/agent/runs", { topic: "guests" }))).runs).toEqual([]);
  });
});

describe("failures, timeouts and shutdown", () => {
  test("a failing turn: its output, then the exit status and the end of its standard error; the run fails", async () => {
    await mention(ann, "failing", "fail");
    const msgs = await agentMessages(ann, inTopic("failing"), 2);
    expect(msgs.map((m) => m.content)).toEqual(["partial output", "The agent's turn failed (exit status 3).\n```text\nsomething broke\n```"]);
    const run = (await ok(ann.get("/ext/agent/runs", { topic: "failing" }))).runs[0];
    expect(run).toMatchObject({ state: "failed", exit_status: 3, ended: expect.any(Number) });
  });

  test("a turn past the limit is stopped with everything it started, and the topic is told", async () => {
    const dir = mkdtempSync(join(tmpdir(), "confab-agent-"));
    const pids = join(dir, "pids.json");
    await mention(ann, "slow", `sleep ${pids}`);
    const { agent, child } = await waitFor("the agent's pid file", () => (existsSync(pids) ? JSON.parse(readFileSync(pids, "utf8")) : undefined), 15_000);
    expect(alive(agent) && alive(child)).toBe(true);
    const msgs = await agentMessages(ann, inTopic("slow"), 2);
    expect(msgs.map((m) => m.content)).toEqual(["sleeping", "The agent's turn took longer than 4 seconds and was stopped."]);
    await waitFor("the agent and its child to end", () => !alive(agent) && !alive(child), 15_000);
    expect((await ok(ann.get("/ext/agent/runs", { topic: "slow" }))).runs[0]).toMatchObject({ state: "failed", exit_status: null });
  });

  test("stopping the runtime stops every turn and ends the runs; nothing is left behind", async () => {
    const dir = mkdtempSync(join(tmpdir(), "confab-agent-"));
    const pids = join(dir, "pids.json");
    await mention(admin, "shutdown", `sleep ${pids}`);
    const { agent, child } = await waitFor("the agent's pid file", () => (existsSync(pids) ? JSON.parse(readFileSync(pids, "utf8")) : undefined), 15_000);
    const run = (await ok(admin.get("/ext/agent/runs", { topic: "shutdown" }))).runs[0];
    await rt.stop();
    expect(alive(agent)).toBe(false);
    // The turn's child got SIGKILL with its group once the agent exited; on a loaded machine the kernel may
    // take a moment to end it (seen twice in full runs: still running right after stop()).
    await waitFor("the turn's child to end", () => !alive(child), 2_000, 5);
    expect(await runOf(admin, run.id)).toMatchObject({ state: "failed", ended: expect.any(Number) });
    rt = await startAgent(s.app);
  });
});

describe("after a server was killed outright", () => {
  test("the next start ends the turns it left running (only groups that are still those turns')", async () => {
    await rt.stop();
    const spawnTurn = (runId: string) =>
      Bun.spawn(["sh", "-c", "sleep 600 & wait"], { env: { PATH: process.env.PATH!, EXT_RUN_ID: runId }, detached: true, stdout: "ignore", stderr: "ignore" });
    const left = spawnTurn("424242");
    const stranger = spawnTurn("777"); // recorded under another run's id: not ours to kill
    await Bun.sleep(100);
    writeFileSync(join(s.dataDir, "agent", "process-groups.json"), JSON.stringify({ 424242: left.pid, 1: stranger.pid }));
    rt = await startAgent(s.app);
    expect(await left.exited).not.toBe(0);
    expect(alive(stranger.pid)).toBe(true);
    process.kill(-stranger.pid, "SIGKILL");
    await stranger.exited;
  });
});

describe("with no agent.command", () => {
  test("the agent is off and says so when mentioned", async () => {
    const off = await startServer();
    const offRt = await startAgent(off.app);
    try {
      const c = await off.newUser({ name: "Olga Off" });
      const ch = (await ok(c.post("/channels/create", { name: "x", subscribers: [c.userId] }))).id;
      const agent = (await ok(c.get("/ext/agent"))).agent;
      expect(agent.enabled).toBe(false);
      await ok(c.post("/messages", { type: "stream", to: ch, topic: "t", content: "@**Agent** are you there?" }));
      const answer = await agentAnswer(c, ch, agent.user_id);
      expect(answer.is_agent_message).toBe(true);
      expect(answer.content).toStartWith("The agent is off:");
      expect((await ok(c.get("/ext/agent/runs"))).runs).toEqual([]);
    } finally {
      await offRt.stop();
      await off.stop();
    }
  });
});

describe("examples/echo-agent.ts", () => {
  test("pointed at by agent.command, it answers in the topic and reacts to the message", async () => {
    const ex = await startServer({
      env: { CONFAB_AGENT_COMMAND: JSON.stringify([process.execPath, join(import.meta.dir, "..", "..", "examples", "echo-agent.ts")]) },
    });
    const exRt = await startAgent(ex.app);
    try {
      const c = await ex.newUser({ name: "Eve Example" });
      const ch = (await ok(c.post("/channels/create", { name: "try", subscribers: [c.userId] }))).id;
      const agent = (await ok(c.get("/ext/agent"))).agent;
      const { id } = await ok(c.post("/messages", { type: "stream", to: ch, topic: "hello", content: "@**Agent** good morning" }));
      const answer = await agentAnswer(c, ch, agent.user_id);
      expect(answer.content).toStartWith("Eve Example, you said: good morning");
      const asked = (await ok(c.get(`/messages/${id}`))).message;
      expect(asked.reactions).toEqual([expect.objectContaining({ emoji_name: "eyes", user_id: agent.user_id })]);
    } finally {
      await exRt.stop();
      await ex.stop();
    }
  });
});

// Last: it leaves a (cancelled) run of bob's that the tests above do not expect.
describe("moves", () => {
  test("a run follows its topic when the topic is renamed", async () => {
    const { id } = await mention(bob, "before-rename", "env");
    const first = report((await agentMessages(ann, inTopic("before-rename"), 1))[0]);
    await ok(ann.patch(`/messages/${id}`, { topic: "after-rename", propagate_mode: "change_all" }));
    expect((await runOf(ann, first.run.id)).topic).toBe("after-rename");
    await mention(bob, "after-rename", "env");
    const msgs = await agentMessages(ann, inTopic("after-rename"), 2);
    const second = report(msgs[1]);
    expect(second.run.id).toBe(first.run.id);
    expect(second.turn).toBe(2);
    await ok(bob.post(`/ext/agent/runs/${first.run.id}/cancel`));
  });
});
