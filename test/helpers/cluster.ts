// Several confab nodes on one PostgreSQL (docs/scaling.md, sections 3 and 9), each a `confab serve`
// process as an operator starts it (test/cli/run.ts), on a fresh database of one throwaway cluster per
// test process, all sharing one data directory, each on its own port. A test that uses it skips with
// `postgresMissing`'s message where no PostgreSQL can be had.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { SQL } from "bun";
import { serve, type Served } from "../cli/run";
import { track } from "./children";
import { Client } from "./client";
import { startPostgres, type Postgres } from "./postgres";

export interface Node {
  url: string;
  /** The node's name (its queue ids start with it), from its "listening" line. */
  name: string;
  proc: Served["proc"];
  stderr(): string;
}

export interface Cluster {
  /** The database every node stores in. */
  databaseUrl: string;
  dataDir: string;
  nodes: Node[];
  /** The first organization's owner, as the first node printed them. */
  owner: { email: string; apiKey: string; password: string };
  /** A client of node `i` (OpenAPI-checked, test/helpers/client.ts); the owner unless credentials are given. */
  client(i: number, email?: string, apiKey?: string, userId?: number): Client;
  /** Signals node `i` (SIGKILL: it dies as a crash kills it) and waits for its exit. */
  kill(i: number, signal?: NodeJS.Signals): Promise<number>;
  /** Starts one more node on the same database and data directory; returns its index. */
  addNode(): Promise<number>;
  /** A connection to the database (closed by `stop`). */
  sql(): SQL;
  /** Stops every node still running (SIGTERM, SIGKILL past 20 s) and removes the data directory. */
  stop(): Promise<void>;
}

let pg: Promise<Postgres> | null = null;
let databases = 0;

/**
 * Starts `n` nodes. The first starts alone (it creates the first organization and prints its owner),
 * the others then start one by one; with `together`, all start at once on the empty database, as a
 * compose file starts them (one of them creates the organization). `env` adds CONFAB_* settings to every node.
 */
export async function startCluster(n: number, o: { env?: Record<string, string>; together?: boolean } = {}): Promise<Cluster> {
  pg ??= startPostgres({ settings: { max_connections: "200" } }); // stopped after the run (test/setup.ts)
  const databaseUrl = await (await pg).createDatabase(`cluster${++databases}`);
  const dataDir = mkdtempSync(join(tmpdir(), "confab-cluster-"));
  const env = { CONFAB_STORAGE_DRIVER: "postgres", CONFAB_STORAGE_URL: databaseUrl, ...o.env };
  const nodes: Node[] = [];
  const served: Served[] = [];
  let sql: SQL | null = null;

  const start = async () => {
    const s = await serve(dataDir, { env });
    track(s.proc); // killed after the run, whatever the test did
    const name = / listening url=\S+ .*\bnode=(\w+)/.exec(s.stderr())?.[1];
    if (!name) throw new Error(`the node did not name itself:\n${s.stderr()}`);
    served.push(s);
    nodes.push({ url: s.url, name, proc: s.proc, stderr: s.stderr });
    return s;
  };

  const stop = async () => {
    await Promise.all(
      served.map(async (s) => {
        if (s.proc.exitCode !== null || s.proc.signalCode !== null) return;
        const hard = setTimeout(() => s.proc.kill("SIGKILL"), 20_000);
        await s.stop();
        clearTimeout(hard);
      }),
    );
    await sql?.close();
    rmSync(dataDir, { recursive: true, force: true });
  };

  try {
    const started = o.together ? await Promise.all(Array.from({ length: n }, start)) : [await start()];
    const first = started.find((s) => s.stdout().includes("owner email")) ?? started[0]!;
    const printed = (label: string) => new RegExp(`${label}: +(\\S+)`).exec(first.stdout())?.[1] ?? "";
    const owner = { email: printed("owner email"), apiKey: printed("API key"), password: printed("password") };
    if (!owner.apiKey) throw new Error(`no node printed the owner:\n${first.stdout()}`);
    for (let i = started.length; i < n; i++) await start();
    return {
      databaseUrl,
      dataDir,
      nodes,
      owner,
      client: (i, email = owner.email, apiKey = owner.apiKey, userId) => new Client(nodes[i]!.url, email, apiKey, userId ?? null),
      async kill(i, signal = "SIGKILL") {
        nodes[i]!.proc.kill(signal);
        return await nodes[i]!.proc.exited;
      },
      async addNode() {
        await start();
        return nodes.length - 1;
      },
      sql: () => (sql ??= new SQL(databaseUrl, { max: 2 })),
      stop,
    };
  } catch (e) {
    await stop();
    throw e;
  }
}
