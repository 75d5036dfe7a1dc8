// The fuzz test's long run (test/api/fuzz-routes.test.ts runs a few thousand): ≥ 200,000 requests
// generated from the route table — every route, every caller (each role, a bot, nobody), plausible
// and hostile values — against the compiled server, eight at a time. Figures: requests, the statuses'
// histogram, requests that got a 5xx or hung, the server's RSS before and after; then the server must
// still answer and its database pass integrity_check. FUZZ_REQUESTS and FUZZ_SEED change the run.
import { Database } from "bun:sqlite";
import fc from "fast-check";
import { join } from "node:path";
import { bootstrapFirstRealm } from "../src/actions/realms";
import { createApp } from "../src/app";
import { loadConfig } from "../src/config";
import { routes } from "../src/http/routes";
import { createLogger } from "../src/lib/log";
import { refreshCallers, seedCallers, seedContent } from "../test/helpers/fuzz-world";
import { describeFuzz, fuzzRequest, sendFuzz, type FuzzRequest } from "../test/helpers/route-fuzz";
import { rssMb, serveExe, stop } from "./lib/proc";
import type { BenchContext, BenchResult } from "./lib/types";

const REQUESTS = Number(process.env.FUZZ_REQUESTS ?? 200_000);
const CONCURRENCY = 8;
const TIMEOUT_MS = 10_000;

export async function run({ exe, tmp, log }: BenchContext): Promise<BenchResult> {
  const dataDir = join(tmp, "data");
  const seed = Number(process.env.FUZZ_SEED ?? Date.now() % 2 ** 31);
  // The callers are made through the actions on an App beside the server (as the CLI does), so one
  // that a fuzzed request deactivated or re-keyed can be replaced while the server runs.
  const app = await createApp(loadConfig({ dataDir }, {}), { batching: false, log: createLogger("error") });
  const first = (await bootstrapFirstRealm(app))!;
  await first.setPassword();
  const { realm, owner } = first;
  const { auths, userIds } = await seedCallers(app, realm, owner);
  const srv = await serveExe(exe, dataDir, join(tmp, "server.log"));
  try {
    const pools = await seedContent(srv.url, auths.owner!, userIds);
    const rssBefore = rssMb(srv.proc.pid);
    // Generated a thousand at a time (seed + chunk), so a long run does not hold every request in memory.
    const arb = fuzzRequest(routes, pools);
    let chunk: FuzzRequest[] = [];
    const take = (i: number) => {
      if (i % 1000 === 0) chunk = fc.sample(arb, { numRuns: Math.min(1000, REQUESTS - i), seed: seed + i / 1000 });
      return chunk[i % 1000]!;
    };
    const statuses: Record<string, number> = {};
    const bad: string[] = [];
    let next = 0;
    let refreshing: Promise<void> | null = null;
    const t0 = performance.now();
    const worker = async () => {
      while (next < REQUESTS) {
        const r = take(next++);
        if (refreshing !== null) await refreshing;
        const a = await sendFuzz(srv.url, r, auths[r.caller], TIMEOUT_MS);
        const key = a.hung ? "hung" : String(a.status);
        statuses[key] = (statuses[key] ?? 0) + 1;
        if (a.hung || a.status >= 500) bad.push(`${key} ${describeFuzz(r)}`);
        if ((a.status === 401 || a.status === 403) && r.caller !== "anon" && refreshing === null)
          refreshing = refreshCallers(srv.url, app, realm, owner, auths).finally(() => (refreshing = null));
        if (next % 20_000 === 0) log(`${next} requests, ${bad.length} bad`);
      }
    };
    await Promise.all(Array.from({ length: CONCURRENCY }, worker));
    const seconds = (performance.now() - t0) / 1000;
    const rssAfter = rssMb(srv.proc.pid);
    const me = await fetch(`${srv.url}/api/v1/users/me`, { headers: { Authorization: auths.owner! } });
    const answers = me.status === 200;
    await stop(srv.proc);
    const db = new Database(join(dataDir, "confab.db"), { readonly: true });
    const integrity = (db.query("PRAGMA integrity_check").get() as { integrity_check: string }).integrity_check;
    db.close();
    for (const line of bad.slice(0, 20)) log(line);
    return {
      figures: {
        seed,
        requests: REQUESTS,
        seconds: Math.round(seconds),
        requests_per_second: Math.round(REQUESTS / seconds),
        ...Object.fromEntries(
          Object.entries(statuses)
            .sort()
            .map(([k, v]) => [`status_${k}`, v]),
        ),
        server_rss_before_mb: Math.round(rssBefore),
        server_rss_after_mb: Math.round(rssAfter),
        answers_afterwards: answers ? "yes" : "no",
        integrity_check: integrity,
      },
      targets: [
        { label: "requests sent", value: Object.values(statuses).reduce((a, b) => a + b, 0), unit: "", op: ">=", limit: 200_000 },
        { label: "5xx answers or hung requests", value: bad.length, unit: "", op: "<", limit: 1 },
        { label: "server answers afterwards, integrity_check ok (1 = yes)", value: answers && integrity === "ok" ? 1 : 0, unit: "", op: ">=", limit: 1 },
      ],
    };
  } finally {
    if (srv.proc.exitCode === null) await stop(srv.proc);
    app.close();
  }
}
