// Several confab nodes on one PostgreSQL and one shared data directory (test/helpers/cluster.ts): each
// records itself in `nodes` with its address and a heartbeat, keeps its own pid file, and leaves at a
// clean stop; a killed node's row goes stale. Skipped, saying why, without PostgreSQL.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { STALE_MS } from "../../src/db/nodes";
import { startCluster, type Cluster } from "../helpers/cluster";
import { postgresMissing } from "../helpers/postgres";
import { waitFor } from "../helpers/wait";

const missing = postgresMissing("cluster tests (nodes)");
let c: Cluster;
beforeAll(async () => {
  if (!missing) c = await startCluster(3);
}, 60_000);
afterAll(async () => await c?.stop());

const rows = async () =>
  (await c.sql()`SELECT name, address, heartbeat_at > now() - make_interval(secs => ${STALE_MS / 1000}) AS live FROM nodes ORDER BY started_at`) as {
    name: string;
    address: string;
    live: boolean;
  }[];

test.skipIf(missing !== null)("three nodes answer on their own ports, each recorded with its address and its own pid file", async () => {
  expect(new Set(c.nodes.map((n) => n.url)).size).toBe(3);
  for (const [i, n] of c.nodes.entries()) {
    const health = await fetch(`${n.url}/health`);
    expect(await health.json()).toMatchObject({ status: "ok", storage: "postgres" });
    expect((await c.client(i).get("/users/me")).email).toBe(c.owner.email);
  }
  expect(await rows()).toEqual(c.nodes.map((n) => ({ name: n.name, address: n.url, live: true })));
  const pids = readdirSync(c.dataDir).filter((f) => f.endsWith(".pid"));
  expect(pids.sort()).toEqual(c.nodes.map((n) => `confab-${n.name}.pid`).sort());
  expect(existsSync(join(c.dataDir, "control.sock"))).toBe(false); // the event bus tells every node what the CLI revokes
});

test.skipIf(missing !== null)(
  "the heartbeat moves; a stopped node leaves; a killed one stays, stale",
  async () => {
    const before = (await c.sql()`SELECT heartbeat_at FROM nodes WHERE name = ${c.nodes[0]!.name}`)[0].heartbeat_at as Date;
    await waitFor("a heartbeat", async () => (await c.sql()`SELECT heartbeat_at FROM nodes WHERE name = ${c.nodes[0]!.name}`)[0].heartbeat_at > before, 5_000);
    expect(await c.kill(1, "SIGTERM")).toBe(0);
    expect((await rows()).map((r) => r.name)).toEqual([c.nodes[0]!.name, c.nodes[2]!.name]);
    expect(existsSync(join(c.dataDir, `confab-${c.nodes[1]!.name}.pid`))).toBe(false);
    await c.kill(2, "SIGKILL");
    await waitFor(
      "the killed node's heartbeat to go stale",
      async () => (await rows()).find((r) => r.name === c.nodes[2]!.name)?.live === false,
      STALE_MS + 4_000,
    );
    expect((await rows()).find((r) => r.name === c.nodes[0]!.name)?.live).toBe(true);
  },
  20_000,
);

test.skipIf(missing !== null)(
  "nodes started together on an empty database create one organization between them, and all serve it",
  async () => {
    const t = await startCluster(3, { together: true });
    try {
      expect(t.nodes.filter((n) => n.stderr().includes("error")).map((n) => n.stderr())).toEqual([]);
      const [{ realms }] = await t.sql()`SELECT count(*)::int AS realms FROM realms`;
      expect(realms).toBe(1);
      for (const i of t.nodes.keys()) expect((await t.client(i).get("/users/me")).email).toBe(t.owner.email);
    } finally {
      await t.stop();
    }
  },
  60_000,
);
