// Topic workspaces and their collaboratively edited README over HTTP: worktrees of a server-kept
// repository, workspace_uuid on topics and messages, two Yjs clients editing at once, cursors, readme
// events only while open, the README file, the agent working in the worktree, and removal.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import * as Y from "yjs";
import { Awareness, applyAwarenessUpdate, encodeAwarenessUpdate, removeAwarenessStates } from "y-protocols/awareness";
import { closeAllReadmes } from "../../src/actions/readme";
import { importIntoRepository, repositoryDir } from "../../src/actions/repositories";
import { defaultRealm } from "../../src/http/realm";
import { git } from "../../src/lib/git";
import { startAgent, type AgentRuntime } from "../../src/runtime/agent";
import { expectError, ok, type Client } from "../helpers/client";
import { waitFor } from "../helpers/wait";
import { drain } from "../helpers/events";
import { startServer, type TestServer } from "../helpers/server";

const AGENT = join(import.meta.dir, "..", "fixtures", "agents", "test-agent.ts");
const scratch = mkdtempSync(join(tmpdir(), "confab-workspaces-"));

let s: TestServer;
let rt: AgentRuntime;
let admin: Client;
let ann: Client;
let bob: Client;
let cat: Client;
let guest: Client;
let channel: number;
let secret: number;
let repo: number;

beforeAll(async () => {
  s = await startServer({ env: { CONFAB_AGENT_COMMAND: JSON.stringify([process.execPath, AGENT]), CONFAB_AGENT_RUN_IDLE_SECONDS: "0" } });
  rt = await startAgent(s.app);
  admin = await s.newUser({ name: "Ada Admin", role: 200 });
  ann = await s.newUser({ name: "Ann Editor" });
  bob = await s.newUser({ name: "Bob Editor" });
  cat = await s.newUser({ name: "Cat Outsider" });
  guest = await s.newUser({ name: "Gus Guest", role: 600 });
  channel = (await ok(ann.post("/channels/create", { name: "project", subscribers: [ann.userId, bob.userId, guest.userId] }))).id;
  secret = (await ok(ann.post("/channels/create", { name: "hidden", subscribers: [ann.userId], invite_only: true }))).id;
  repo = (await ok(admin.post("/ext/repositories", { name: "project" }))).repository.id;
  const dir = mkdtempSync(join(scratch, "tree-"));
  writeFileSync(join(dir, "README.md"), "# Project\n");
  writeFileSync(join(dir, "main.txt"), "code\n");
  await importIntoRepository(s.app, await defaultRealm(s.app), null, repo, dir);
});
afterAll(async () => {
  await rt.stop();
  await s.stop();
  rmSync(scratch, { recursive: true, force: true });
});

const b64 = (u: Uint8Array) => Buffer.from(u).toString("base64");
const bytes = (s: string) => new Uint8Array(Buffer.from(s, "base64"));
const pending = async (c: Client, q: Record<string, any>) => (await drain(c, q)).filter((e) => e.type !== "heartbeat");
const worktree = (uuid: string) => join(s.dataDir, "workspaces", uuid);

/** One editing client: its own Y.Doc and awareness, and its user's event queue. */
class Editor {
  doc = new Y.Doc();
  awareness = new Awareness(this.doc);
  lastEvent = -1;
  constructor(
    readonly c: Client,
    readonly uuid: string,
    readonly queue: string,
  ) {}
  get client() {
    return String(this.doc.clientID);
  }
  get text() {
    return this.doc.getText("readme").toString();
  }
  async open() {
    this.awareness.setLocalStateField("cursor", { name: this.c.email });
    const r = await ok(
      this.c.post(`/ext/workspaces/${this.uuid}/readme`, { client: this.client, awareness: b64(encodeAwarenessUpdate(this.awareness, [this.doc.clientID])) }),
    );
    Y.applyUpdate(this.doc, bytes(r.state), "server");
    applyAwarenessUpdate(this.awareness, bytes(r.awareness), "server");
    return r;
  }
  /** Edits locally and sends the change, as an editor binding does. */
  async edit(fn: (t: Y.Text) => void) {
    const before = Y.encodeStateVector(this.doc);
    this.doc.transact(() => fn(this.doc.getText("readme")));
    await ok(this.c.patch(`/ext/workspaces/${this.uuid}/readme`, { client: this.client, update: b64(Y.encodeStateAsUpdate(this.doc, before)) }));
  }
  /** Applies the other clients' updates and cursors from the user's queue (which also carries this client's own); returns them. */
  async pull(): Promise<any[]> {
    const events = (await ok(this.c.get("/events", { queue_id: this.queue, last_event_id: this.lastEvent, dont_block: true }))).events;
    for (const e of events) {
      this.lastEvent = Math.max(this.lastEvent, e.id);
      if (e.type !== "ext_readme" || e.client === this.client) continue;
      if (e.op === "update") Y.applyUpdate(this.doc, bytes(e.update), "server");
      else applyAwarenessUpdate(this.awareness, bytes(e.awareness), "server");
    }
    return events.filter((e: any) => e.type === "ext_readme" && e.client !== this.client);
  }
  async close() {
    removeAwarenessStates(this.awareness, [this.doc.clientID], "local");
    await ok(
      this.c.delete(`/ext/workspaces/${this.uuid}/readme`, { client: this.client, awareness: b64(encodeAwarenessUpdate(this.awareness, [this.doc.clientID])) }),
    );
  }
}

const editor = async (c: Client, uuid: string) => new Editor(c, uuid, (await ok(c.post("/register", { event_types: ["ext_readme"] }))).queue_id);

describe("workspaces", () => {
  let uuid: string;

  test("a topic's workspace: a worktree of the repository on its own branch; readers hear of it", async () => {
    const qb = await ok(bob.post("/register", { event_types: ["ext_workspace"] }));
    const qc = await ok(cat.post("/register", { event_types: ["ext_workspace"] }));
    await ok(ann.post("/messages", { type: "stream", to: channel, topic: "Design", content: "let's write it down" }));
    const { workspace } = await ok(ann.post("/ext/workspaces", { stream_id: channel, topic: "Design", repository_id: repo }));
    uuid = workspace.workspace_uuid;
    expect(workspace).toEqual({
      workspace_uuid: expect.stringMatching(/^[0-9a-f-]{36}$/),
      stream_id: channel,
      topic: "Design",
      repository_id: repo,
      branch: `workspace/${uuid}`,
      created_by: ann.userId,
      date_created: expect.any(Number),
    });
    expect(readFileSync(join(worktree(uuid), "README.md"), "utf8")).toBe("# Project\n");
    expect(await pending(bob, qb)).toEqual([{ type: "ext_workspace", op: "add", workspace, id: 0 }]);
    expect(await pending(cat, qc)).toEqual([{ type: "ext_workspace", op: "add", workspace, id: 0 }]); // a public channel
    expect((await ok(bob.get(`/ext/workspaces/${uuid}`))).workspace).toEqual(workspace);
    expect((await ok(bob.get("/ext/workspaces", { stream_id: channel }))).workspaces).toEqual([workspace]);
  });

  test("workspace_uuid on the topic (any spelling) and on its messages, fetched and as events", async () => {
    const topics = (await ok(bob.get(`/users/me/${channel}/topics`))).topics;
    expect(topics.find((t: any) => t.name === "Design").workspace_uuid).toBe(uuid);
    const q = await ok(bob.post("/register", { event_types: ["message"] }));
    await ok(ann.post("/messages", { type: "stream", to: channel, topic: "design", content: "same topic" }));
    await ok(ann.post("/messages", { type: "stream", to: channel, topic: "elsewhere", content: "another topic" }));
    const [inTopic, other] = (await pending(bob, q)).map((e: any) => e.message);
    expect(inTopic.workspace_uuid).toBe(uuid);
    expect(other.workspace_uuid).toBeUndefined();
    const { messages } = await ok(
      bob.get("/messages", { anchor: "newest", num_before: 10, num_after: 0, narrow: JSON.stringify([{ operator: "channel", operand: channel }]) }),
    );
    for (const m of messages) expect(m.workspace_uuid).toBe(m.subject.toLowerCase() === "design" ? uuid : undefined);
    expect((await ok(bob.get(`/users/me/${channel}/topics`))).topics.find((t: any) => t.name === "elsewhere").workspace_uuid).toBeUndefined();
  });

  test("refusals: one per topic, unknown start, unreadable channel, guests", async () => {
    await expectError(
      bob.post("/ext/workspaces", { stream_id: channel, topic: "DESIGN", repository_id: repo }),
      400,
      "BAD_REQUEST",
      "This topic already has a workspace",
    );
    await expectError(
      bob.post("/ext/workspaces", { stream_id: channel, topic: "x", repository_id: repo, start: "no-such-branch" }),
      400,
      "BAD_REQUEST",
      "No branch, tag or commit named 'no-such-branch'",
    );
    await expectError(bob.post("/ext/workspaces", { stream_id: channel, topic: "x", repository_id: 9999 }), 404, "BAD_REQUEST", "Repository does not exist");
    await expectError(bob.post("/ext/workspaces", { stream_id: secret, topic: "x", repository_id: repo }), 400, "BAD_REQUEST", "Invalid channel ID");
    await expectError(
      guest.post("/ext/workspaces", { stream_id: channel, topic: "x", repository_id: repo }),
      400,
      "BAD_REQUEST",
      "Not allowed for guest users",
    );
    const hidden = (await ok(ann.post("/ext/workspaces", { stream_id: secret, topic: "plans", repository_id: repo }))).workspace;
    await expectError(bob.get(`/ext/workspaces/${hidden.workspace_uuid}`), 404, "BAD_REQUEST", "Workspace does not exist");
    expect((await ok(bob.get("/ext/workspaces"))).workspaces.map((w: any) => w.workspace_uuid)).toEqual([uuid]);
    await expectError(bob.post(`/ext/workspaces/${hidden.workspace_uuid}/readme`, { client: "1" }), 404, "BAD_REQUEST", "Workspace does not exist");
  });

  describe("the README", () => {
    test("two clients editing at once converge, and the file holds the merged text", async () => {
      const a = await editor(ann, uuid);
      const b = await editor(bob, uuid);
      await a.open();
      await b.open();
      expect(a.text).toBe("# Project\n");
      expect(b.text).toBe("# Project\n");
      // b's cursor was sent on open; a sees it.
      await a.pull();
      expect(a.awareness.getStates().get(b.doc.clientID)).toEqual({ cursor: { name: bob.email } });
      // Both type before hearing from the other.
      await Promise.all([a.edit((t) => t.insert(t.length, "Ann's line\n")), b.edit((t) => t.insert(0, "Bob's title\n"))]);
      await Promise.all([a.edit((t) => t.insert(t.length, "Ann again\n")), b.edit((t) => t.delete(0, 1))]);
      await a.pull();
      await b.pull();
      expect(a.text).toBe(b.text);
      expect(a.text).toBe("ob's title\n# Project\nAnn's line\nAnn again\n");
      await waitFor("the worktree's README.md to match the editors", () => readFileSync(join(worktree(uuid), "README.md"), "utf8") === a.text, 15_000, 25);
      await a.close();
      await b.close();
    });

    test("readme events reach the user's clients only while one of theirs has it open; cursors go on close", async () => {
      const a = await editor(ann, uuid);
      const b = await editor(bob, uuid);
      const bOther = await ok(bob.post("/register", { event_types: ["ext_readme"] })); // bob's second client, not editing
      const notOpen = await ok(cat.post("/register", { event_types: ["ext_readme"] }));
      await a.open();
      await b.open();
      await a.edit((t) => t.insert(0, "1"));
      const seen = await b.pull();
      expect(seen.map((e) => [e.op, e.client])).toEqual([["update", a.client]]);
      expect(seen[0]).toMatchObject({ type: "ext_readme", workspace_uuid: uuid, update: expect.any(String) });
      // Every client of a viewing user gets them: b's own cursor, then a's update.
      expect((await pending(bob, bOther)).map((e: any) => [e.op, e.client])).toEqual([
        ["awareness", b.client],
        ["update", a.client],
      ]);
      expect((await a.pull()).map((e) => [e.op, e.client])).toEqual([["awareness", b.client]]); // b's cursor, sent on open
      expect(a.awareness.getStates().has(b.doc.clientID)).toBe(true);
      await b.close();
      const onClose = await a.pull();
      expect(onClose.map((e) => [e.op, e.client])).toEqual([["awareness", b.client]]);
      expect(a.awareness.getStates().has(b.doc.clientID)).toBe(false);
      await a.edit((t) => t.insert(0, "2"));
      expect(await b.pull()).toEqual([]);
      expect(await pending(cat, notOpen)).toEqual([]);
      await expectError(
        bob.patch(`/ext/workspaces/${uuid}/readme`, { client: b.client, update: b64(Y.encodeStateAsUpdate(b.doc)) }),
        400,
        "BAD_REQUEST",
        "This client does not have the README open",
      );
      await a.close();
    });

    test("bad input changes nothing", async () => {
      const a = await editor(ann, uuid);
      await a.open();
      const path = `/ext/workspaces/${uuid}/readme`;
      await expectError(ann.patch(path, { client: a.client, update: "not base64!" }), 400, "BAD_REQUEST", "Invalid update");
      await expectError(ann.patch(path, { client: a.client, update: b64(new Uint8Array([9, 9, 9])) }), 400, "BAD_REQUEST", "Invalid update");
      const someoneElse = new Awareness(new Y.Doc());
      someoneElse.setLocalStateField("cursor", 1);
      await expectError(
        ann.patch(path, { client: a.client, awareness: b64(encodeAwarenessUpdate(someoneElse, [someoneElse.clientID])) }),
        400,
        "BAD_REQUEST",
        "An awareness update may only change the sending client's state",
      );
      await expectError(ann.patch(path, { client: a.client }), 400, "BAD_REQUEST", "Nothing to change");
      await expectError(ann.patch(path, { client: "x1" }), 400, "BAD_REQUEST", "Invalid client");
      await expectError(bob.post(path, { client: a.client }), 400, "BAD_REQUEST", "This client ID is in use by another user");
      await expectError(cat.delete(path, { client: a.client }), 400, "BAD_REQUEST", "This client does not have the README open");
      const fresh = await editor(bob, uuid);
      await fresh.open();
      expect(fresh.text).toBe(a.text);
      await fresh.close();
      await a.close();
    });

    test("the text survives the document leaving memory: the next open reads the file", async () => {
      const a = await editor(ann, uuid);
      await a.open();
      await a.edit((t) => t.insert(t.length, "kept\n"));
      const text = a.text;
      await a.close(); // the last client: saved at once and unloaded
      expect(readFileSync(join(worktree(uuid), "README.md"), "utf8")).toBe(text);
      const again = await editor(bob, uuid);
      await again.open();
      expect(again.text).toBe(text);
      await again.close();
    });
  });

  test("stopping the server writes edits not yet saved; the next start reads them from the file", async () => {
    const a = await editor(ann, uuid);
    await a.open();
    await a.edit((t) => t.insert(t.length, "written at shutdown\n"));
    closeAllReadmes(s.app); // what `confab serve` does on SIGTERM
    expect(readFileSync(join(worktree(uuid), "README.md"), "utf8")).toBe(a.text);
    await expectError(ann.delete(`/ext/workspaces/${uuid}/readme`, { client: a.client }), 400, "BAD_REQUEST", "This client does not have the README open");
    const again = await editor(ann, uuid);
    await again.open();
    expect(again.text).toBe(a.text);
    await again.close();
  });

  test("the agent's turns in the topic work in the worktree, and what they write reaches the editors", async () => {
    const a = await editor(ann, uuid);
    await a.open();
    await a.edit((t) => t.insert(t.length, "typed before the turn\n"));
    const turn = await ok(ann.post("/messages", { type: "stream", to: channel, topic: "Design", content: "@**Agent** readme added by the agent" }));
    const answer = await waitFor(
      "the agent's answer",
      async () => {
        const { messages } = await ok(
          ann.get("/messages", {
            anchor: "newest",
            num_before: 5,
            num_after: 0,
            apply_markdown: false,
            narrow: JSON.stringify([{ operator: "channel", operand: channel }]),
          }),
        );
        return messages.find((m: any) => m.id > turn.id && m.is_agent_message);
      },
      15_000,
      25,
    );
    expect(answer.content).toBe(`wrote README.md in ${worktree(uuid)}`);
    expect(answer.workspace_uuid).toBe(uuid);
    await waitFor("the agent's line in the editor", async () => (await a.pull(), a.text.endsWith("typed before the turn\nadded by the agent\n")), 15_000, 25);
    await a.close();
  });

  test("moving the whole topic takes its workspace along; readers of both places hear of it", async () => {
    const q = await ok(bob.post("/register", { event_types: ["ext_workspace"] }));
    const { messages } = await ok(
      ann.get("/messages", {
        anchor: "oldest",
        num_before: 0,
        num_after: 1,
        narrow: JSON.stringify([
          { operator: "channel", operand: channel },
          { operator: "topic", operand: "design" },
        ]),
      }),
    );
    await ok(ann.patch(`/messages/${messages[0].id}`, { topic: "Spec", propagate_mode: "change_all" }));
    const topics = (await ok(bob.get(`/users/me/${channel}/topics`))).topics;
    expect(topics.find((t: any) => t.name === "Spec").workspace_uuid).toBe(uuid);
    expect(topics.some((t: any) => t.name.toLowerCase() === "design")).toBe(false);
    const [event] = await pending(bob, q);
    expect(event).toMatchObject({ type: "ext_workspace", op: "update", workspace: { workspace_uuid: uuid, stream_id: channel, topic: "Spec" } });
    expect((await ok(bob.get(`/ext/workspaces/${uuid}`))).workspace.topic).toBe("Spec");
  });

  test("removal: the creator or an administrator; the work is committed to its branch; readers hear of it", async () => {
    await expectError(bob.delete(`/ext/workspaces/${uuid}`), 400, "BAD_REQUEST", "Insufficient permission");
    const q = await ok(bob.post("/register", { event_types: ["ext_workspace"] }));
    await ok(admin.delete(`/ext/workspaces/${uuid}`));
    expect(existsSync(worktree(uuid))).toBe(false);
    const readme = await git(["--git-dir", repositoryDir(s.app, { id: repo } as never), "show", `workspace/${uuid}:README.md`]);
    expect(readme).toEndWith("added by the agent\n");
    expect(await pending(bob, q)).toEqual([{ type: "ext_workspace", op: "remove", workspace_uuid: uuid, stream_id: channel, topic: "Spec", id: 0 }]);
    expect((await ok(bob.get(`/users/me/${channel}/topics`))).topics.find((t: any) => t.name === "Spec").workspace_uuid).toBeUndefined();
    await expectError(bob.get(`/ext/workspaces/${uuid}`), 404, "BAD_REQUEST", "Workspace does not exist");
  });
});
