// Leases on several confab nodes (docs/scaling.md, section 7): each plugin install runs on exactly one
// node, installs spread over the nodes, and when a node is SIGKILLed its installs start on another; the
// single-node work (agent, housekeeping, scheduler, mail, outgoing webhooks) moves likewise.
// `confab serve` processes on one PostgreSQL (test/helpers/cluster.ts); skipped, saying why, without it.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { cleanEnv, run } from "../cli/run";
import { ok, type Client } from "../helpers/client";
import { startCluster, type Cluster } from "../helpers/cluster";
import { postgresMissing } from "../helpers/postgres";
import { waitFor } from "../helpers/wait";

const missing = postgresMissing("plugin lease tests");
let cluster: Cluster;
beforeAll(async () => {
  if (!missing) cluster = await startCluster(2, { env: { CONFAB_PLUGINS_POLL_MS: "200", CONFAB_PLUGINS_SHUTDOWN_GRACE_MS: "300" } });
});
afterAll(async () => {
  const left = cluster ? pluginProcesses() : [];
  await cluster?.stop();
  // What a SIGKILLed node left that no node took over before the end (a node taking an install ends them).
  for (const p of left) if (p.ppid === 1 || !cluster.nodes.some((n) => n.proc.pid === p.ppid)) process.kill(-p.pid, "SIGKILL");
});

/** The running processes of fixture plugins, by install id, each with the confab process it descends from. */
function pluginProcesses(): { install: string; pid: number; ppid: number }[] {
  const out: { install: string; pid: number; ppid: number }[] = [];
  for (const e of readdirSync("/proc")) {
    if (!/^\d+$/.test(e)) continue;
    try {
      const env = readFileSync(`/proc/${e}/environ`, "utf8").split("\0");
      const stat = readFileSync(`/proc/${e}/stat`, "utf8");
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      if (fields[0] === "Z" || Number(fields[2]) !== Number(e)) continue; // the group's leader only
      const site = env.find((v) => v.startsWith("EXT_SITE="));
      const install = env.find((v) => v.startsWith("EXT_INSTALL_ID="));
      if (install && site && cluster.nodes.some((n) => site.includes(new URL(n.url).host)))
        out.push({ install: install.split("=")[1]!, pid: Number(e), ppid: Number(fields[1]) });
    } catch {
      // gone, or not ours
    }
  }
  return out;
}

const plugin = async (c: Client, id: number) => (await ok(c.get(`/ext/plugins/${id}`))).plugin;
/** How many times the plugin host started an install's process, on whichever node (its output file is shared). */
const starts = (id: number) => {
  try {
    return readFileSync(join(cluster.dataDir, "plugins", String(id), "output.log"), "utf8")
      .split("\n")
      .filter((l) => l.startsWith("[confab] started pid")).length;
  } catch {
    return 0;
  }
};

test.skipIf(missing !== null)("three installs on two nodes run once each, spread; a SIGKILLed node's installs move", async () => {
  // Three plugins that answer (one API call) and stay up, in a repository of the cluster's data directory.
  const src = mkdtempSync(join(tmpdir(), "confab-plugins-"));
  for (const name of ["p1", "p2", "p3"]) {
    mkdirSync(join(src, name));
    writeFileSync(
      join(src, name, "manifest.json"),
      JSON.stringify({ id: name, name, description: "Stays up.", version: "0.1.0", glyph: "🧪", provides: {}, run: { command: ["sh", "run.sh"] } }),
    );
    writeFileSync(join(src, name, "run.sh"), 'curl -s -o /dev/null -u "$EXT_EMAIL:$EXT_API_KEY" "$EXT_API_URL/users/me"\nexec sleep 600\n');
  }
  const env = cleanEnv({ CONFAB_STORAGE_DRIVER: "postgres", CONFAB_STORAGE_URL: cluster.databaseUrl });
  expect((await run(["repo", "create", "fixtures", "--data-dir", cluster.dataDir], { env })).code).toBe(0);
  expect((await run(["repo", "import", "fixtures", src, "--data-dir", cluster.dataDir, "--message", "plugins"], { env })).code).toBe(0);
  rmSync(src, { recursive: true });
  const admin = cluster.client(0);
  const repo = (await ok(admin.get("/ext/repositories"))).repositories[0].id;
  const ids: number[] = [];
  for (const name of ["p1", "p2", "p3"])
    ids.push((await ok(admin.post("/ext/plugins", { source_kind: "local", source_repository_id: repo, source_path: name }))).plugin.id);

  await waitFor("all three running", async () => (await Promise.all(ids.map((id) => plugin(admin, id)))).every((p) => p.state === "running"), 20_000);
  await Bun.sleep(1000); // a few of the hosts' looks: nothing more starts
  const procs = pluginProcesses();
  expect(procs.map((p) => p.install).sort()).toEqual(ids.map(String).sort());
  expect(ids.map(starts)).toEqual([1, 1, 1]);
  const byNode = cluster.nodes.map((n) => procs.filter((p) => p.ppid === n.proc.pid).map((p) => Number(p.install)));
  expect(byNode.map((l) => l.length).sort()).toEqual([1, 2]); // ceil(3 / 2) = 2 on one node, the rest on the other

  // The node running two is killed outright: its installs start on the other within a few seconds.
  const victim = byNode[0]!.length === 2 ? 0 : 1;
  const survivor = cluster.nodes[1 - victim]!;
  const t0 = performance.now();
  await cluster.kill(victim);
  await waitFor(
    "every install running on the surviving node",
    () => {
      const now = pluginProcesses();
      return now.length === 3 && now.every((p) => p.ppid === survivor.proc.pid);
    },
    15_000,
    50,
  );
  console.log(`plugins moved ${(performance.now() - t0).toFixed(0)} ms after their node's SIGKILL`);
  const other = cluster.client(1 - victim);
  await waitFor("all three running again", async () => (await Promise.all(ids.map((id) => plugin(other, id)))).every((p) => p.state === "running"), 20_000);
  // The killed node's own processes were ended by the node that took its installs over, never left twice.
  expect(
    pluginProcesses()
      .map((p) => p.install)
      .sort(),
  ).toEqual(ids.map(String).sort());
  expect(ids.map(starts).reduce((a, b) => a + b)).toBe(5);
});

test.skipIf(missing !== null)("the single-node work moves to another node when its node is SIGKILLed", async () => {
  const live = () => cluster.nodes.map((n, i) => i).filter((i) => cluster.nodes[i]!.proc.exitCode === null && cluster.nodes[i]!.proc.signalCode === null);
  while (live().length < 2) await cluster.addNode();
  const starts = (i: number) => cluster.nodes[i]!.stderr().split("single-node work started here").length - 1;
  const holder = await waitFor("a node running the single-node work", () => live().find((i) => starts(i) > 0) ?? null, 10_000);
  const before = new Map(live().map((i) => [i, starts(i)]));
  const t0 = performance.now();
  await cluster.kill(holder);
  const next = await waitFor("another node taking it over", () => live().find((i) => starts(i) > before.get(i)!) ?? null, 10_000, 20);
  console.log(`single-node work taken over ${(performance.now() - t0).toFixed(0)} ms after its node's SIGKILL`);
  // Only that one: every other live node still has not started it since.
  for (const i of live()) if (i !== next) expect(starts(i)).toBe(before.get(i)!);
  // The killed node's plugins too: every install runs on a live node, nothing left of the dead one.
  const pids = new Set(live().map((i) => cluster.nodes[i]!.proc.pid));
  await waitFor("the installs on live nodes only", () => pluginProcesses().length === 3 && pluginProcesses().every((p) => pids.has(p.ppid)), 15_000);
});
