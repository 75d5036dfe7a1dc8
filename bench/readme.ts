// A workspace README edited together on the compiled server, load from a separate process
// (bench/lib/readme-client.ts): 20 clients, each sending 10 Yjs updates a second. Every client must end
// with the same text, and the 99th-percentile time from an update's sending to its arrival at the other
// clients (through their event queues) must stay under 100 ms. After every client has closed, the
// README file holds that text.
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { bootstrapFirstRealm } from "../src/actions/realms";
import { createRepository, importIntoRepository } from "../src/actions/repositories";
import { createUser } from "../src/actions/users";
import { createApp } from "../src/app";
import { loadConfig } from "../src/config";
import { createLogger } from "../src/lib/log";
import { cpuMicros, serveExe, stop } from "./lib/proc";
import { basic, type Cred } from "./lib/seed";
import type { BenchContext, BenchResult } from "./lib/types";

const CLIENTS = Number(process.env.BENCH_README_CLIENTS ?? 20);
const RATE = Number(process.env.BENCH_README_RATE ?? 10); // updates per second per client
const SECONDS = Number(process.env.BENCH_README_SECONDS ?? 10);
const CLIENT = join(import.meta.dir, "lib", "readme-client.ts");

/** The users and a repository with a README, written through confab's actions before the server starts. */
async function seed(dataDir: string, tmp: string) {
  const app = await createApp(loadConfig({ dataDir }, {}), { batching: false, log: createLogger("error") });
  try {
    const first = (await bootstrapFirstRealm(app))!;
    await first.setPassword(); // before the database closes
    const users: Cred[] = [];
    for (let i = 0; i < CLIENTS; i++) {
      const u = await createUser(app, first.realm, { email: `editor${i}@example.com`, fullName: `Editor ${i}` });
      users.push({ id: u.id, email: u.email, key: u.apiKey });
    }
    const src = join(tmp, "project");
    mkdirSync(src, { recursive: true });
    writeFileSync(join(src, "README.md"), "# Project\n\nWritten together.\n");
    const { repository } = await createRepository(app, first.realm, null, { name: "project", description: "" });
    await importIntoRepository(app, first.realm, null, repository.id, src);
    return { owner: { id: first.owner.id, email: first.owner.email, key: first.owner.apiKey }, users, repositoryId: repository.id };
  } finally {
    app.close();
  }
}

async function api(url: string, c: Cred, method: string, path: string, params: Record<string, unknown>) {
  const form = new URLSearchParams(Object.entries(params).map(([k, v]): [string, string] => [k, typeof v === "string" ? v : JSON.stringify(v)]));
  const res = await fetch(`${url}/api/v1${path}`, {
    method,
    headers: { Authorization: basic(c), "Content-Type": "application/x-www-form-urlencoded" },
    body: form,
  });
  const body = (await res.json()) as any;
  if (body.result !== "success") throw new Error(`${method} ${path}: ${JSON.stringify(body).slice(0, 300)}`);
  return body;
}

export async function run(ctx: BenchContext): Promise<BenchResult> {
  const dataDir = join(ctx.tmp, "data");
  ctx.log(`seeding ${CLIENTS} users and a repository`);
  const { owner, users, repositoryId } = await seed(dataDir, ctx.tmp);
  const { proc: server, url } = await serveExe(ctx.exe, dataDir, join(ctx.tmp, "server.log"));
  try {
    const channel = (await api(url, owner, "POST", "/channels/create", { name: "docs", subscribers: users.map((u) => u.id) })).id;
    const { workspace } = await api(url, owner, "POST", "/ext/workspaces", { stream_id: channel, topic: "readme", repository_id: repositoryId });
    ctx.log(`${CLIENTS} clients editing one README, ${RATE} updates a second each, for ${SECONDS} s`);
    const specFile = join(ctx.tmp, "readme.json");
    writeFileSync(specFile, JSON.stringify({ url, uuid: workspace.workspace_uuid, users, rate: RATE, seconds: SECONDS }));
    const cpu0 = cpuMicros(server.pid);
    const load = Bun.spawn([process.execPath, CLIENT, specFile], {
      env: { ...process.env, BUN_CONFIG_MAX_HTTP_REQUESTS: String(CLIENTS * 4 + 64) },
      stdout: "pipe",
      stderr: "inherit",
    });
    const out = await new Response(load.stdout).text();
    if ((await load.exited) !== 0) throw new Error(`readme client failed: ${out.slice(0, 500)}`);
    const cpuSeconds = (cpuMicros(server.pid) - cpu0) / 1e6;
    const r = JSON.parse(out.trim().split("\n").at(-1)!);
    const file = readFileSync(join(dataDir, "workspaces", workspace.workspace_uuid, "README.md"), "utf8");
    const fileMatches = file === r.text;
    ctx.log(
      `  ${r.sent} updates in ${r.send_seconds.toFixed(1)} s; ${r.arrivals}/${r.expected} arrivals; p50 ${r.p50_ms.toFixed(1)} ms, p99 ${r.p99_ms.toFixed(1)} ms, max ${r.max_ms.toFixed(1)} ms`,
    );
    ctx.log(
      `  ${r.converged}/${r.clients} clients hold the same text (${r.text.length} characters); the README file ${fileMatches ? "holds it" : "DIFFERS"}; server CPU ${cpuSeconds.toFixed(1)} s`,
    );
    return {
      figures: {
        clients: r.clients,
        updates_per_client_per_s: RATE,
        seconds: SECONDS,
        updates_sent: r.sent,
        send_seconds: round(r.send_seconds),
        arrivals_expected: r.expected,
        arrivals: r.arrivals,
        clients_converged: r.converged,
        text_characters: r.text.length,
        readme_file_matches: fileMatches ? "yes" : "no",
        arrival_p50_ms: round(r.p50_ms),
        arrival_p99_ms: round(r.p99_ms),
        arrival_max_ms: round(r.max_ms),
        server_cpu_seconds: round(cpuSeconds),
      },
      targets: [
        { label: "clients holding the same text", value: r.converged, unit: "", op: ">=", limit: r.clients },
        { label: "updates that reached every other client", value: r.arrivals, unit: "", op: ">=", limit: r.expected },
        { label: "the README file holds the merged text", value: fileMatches ? 1 : 0, unit: "", op: ">=", limit: 1 },
        { label: "99th-percentile update → arrival at the other clients", value: round(r.p99_ms), unit: "ms", op: "<", limit: 100 },
      ],
    };
  } finally {
    await stop(server);
  }
}

const round = (x: number, digits = 1) => Math.round(x * 10 ** digits) / 10 ** digits;
