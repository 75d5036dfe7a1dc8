import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { addStarterContent, bootstrapFirstRealm } from "../../src/actions/realms";
import { createUser } from "../../src/actions/users";
import { findRealmById, listRealms } from "../../src/store/realms";
import { findUserByEmail } from "../../src/store/users";
import { createApp } from "../../src/app";
import type { App } from "../../src/context";
import { loadConfig } from "../../src/config";
import type { Role } from "../../src/domain/roles";
import { listen, type HttpServer } from "../../src/http/server";
import { createLogger } from "../../src/lib/log";
import { startSearchIndexer } from "../../src/runtime/housekeeping";
import { startControlSocket } from "../../src/runtime/control";
import { startScheduler } from "../../src/runtime/scheduler";
import { startEmailWorker } from "../../src/runtime/email";
import { startPluginHost } from "../../src/runtime/supervisor";
import { startOutgoingWebhooks } from "../../src/runtime/outgoing-webhooks";
import { SingleNodeWork } from "../../src/runtime/single-node-work";
import { Client } from "./client";
import { UNLIMITED } from "../cli/run";
import { TestClock } from "./clock";
import { startPostgres, type Postgres } from "./postgres";

/**
 * The engine the servers of this test process store in: `CONFAB_TEST_STORAGE=postgres` (the second pass
 * of `npm test`, test/postgres-pass.ts) puts each on a fresh database of one PostgreSQL cluster per
 * process; otherwise each has its SQLite file.
 */
export const testStorage: "sqlite" | "postgres" = process.env.CONFAB_TEST_STORAGE === "postgres" ? "postgres" : "sqlite";

/**
 * For `test.skipIf(sqliteFileOnly)`: a test of what only the SQLite file has (its bytes, its PRAGMAs, its
 * backups), not of behaviour. Such a test says so beside this mark; whole files left out of the
 * PostgreSQL pass are listed, with their reasons, in test/postgres-pass.ts.
 */
export const sqliteFileOnly = testStorage === "postgres";

let cluster: Promise<Postgres> | null = null;
/** Each data directory's database, so that a restart on kept data finds its database again. */
const databases = new Map<string, string>();

/** The env that puts a server on data directory `dataDir` in PostgreSQL: a new database, or the one it had. */
async function storageEnv(dataDir: string): Promise<Record<string, string>> {
  if (testStorage === "sqlite") return {};
  let url = databases.get(dataDir);
  if (!url) {
    cluster ??= startPostgres({ settings: { max_connections: "400" } }); // stopped when the process exits
    url = await (await cluster).createDatabase(`t${databases.size + 1}`);
    databases.set(dataDir, url);
  }
  return { CONFAB_STORAGE_DRIVER: "postgres", CONFAB_STORAGE_URL: url };
}

export interface TestServer {
  app: App;
  http: HttpServer;
  url: string;
  dataDir: string;
  /** The CONFAB_* variables that reach this server's database besides data_dir (PostgreSQL's; none on SQLite), for a CLI run or a restart. */
  env: Record<string, string>;
  /** What `app.now()` reads: move it to age data (`s.clock.advance(3600)`), never rewrite rows. */
  clock: TestClock;
  owner: Client;
  ownerPassword: string;
  /** A client with no credentials. */
  anon: Client;
  newUser(o?: { role?: Role; name?: string; email?: string; password?: string }): Promise<Client>;
  client(email: string, apiKey: string, userId?: number): Client;
  /** The single-node work, for a server started as a `node`. */
  single: SingleNodeWork | null;
  /** Stops the server; `keepData` leaves the data directory for another server (a restart). */
  stop(o?: { keepData?: boolean }): Promise<void>;
}

let counter = 0;

/**
 * A real server in this process on a temporary data directory and a free port, with the first realm
 * and its owner. `env` takes CONFAB_* overrides (e.g. CONFAB_EVENTS_HEARTBEAT_SECONDS: "1").
 * `log` receives every log line (at CONFAB_LOG_LEVEL, "error" unless given) instead of stderr.
 * `dataDir` restarts on a stopped server's kept data (its ownerPassword is then unknown: "").
 * The realm starts bare unless `starterContent` (#general, #sandbox, the welcome note) is asked for.
 * `node` runs the single-node work as `confab serve` does (the agent, housekeeping, the scheduler, mail
 * and outgoing webhooks; on PostgreSQL under its lease), so that servers started on one `dataDir` (and
 * so one database) are the nodes of one cluster.
 */
export async function startServer(
  o: { env?: Record<string, string>; log?: (line: string) => void; dataDir?: string; starterContent?: boolean; node?: boolean } = {},
): Promise<TestServer> {
  const dataDir = o.dataDir ?? mkdtempSync(join(tmpdir(), "confab-test-"));
  const storage = await storageEnv(dataDir);
  const config = loadConfig({ dataDir, port: 0, host: "127.0.0.1" }, { CONFAB_LOG_LEVEL: "error", ...UNLIMITED, ...storage, ...o.env });
  const clock = new TestClock();
  const app = await createApp(config, { batching: true, log: createLogger(config.logLevel, o.log), now: clock.now });
  const first = await bootstrapFirstRealm(app);
  if (first && o.starterContent) await addStarterContent(app, first.realm, first.owner);
  await first?.setPassword();
  const realm = first?.realm ?? (await listRealms(app.db))[0]!;
  const owner = first?.owner ?? (await findUserByEmail(app.db, realm.id, config.firstRealm.ownerEmail))!;
  const single = o.node ? new SingleNodeWork(app, { emailPollMs: 100 }) : null;
  await single?.listen();
  const http = listen(app, "127.0.0.1", 0);
  const stopControl = startControlSocket(app);
  app.queues.startGc();
  const plugins = await startPluginHost(app);
  await single?.start();
  const stopIndexer = single ? () => {} : startSearchIndexer(app);
  const stopScheduler = single ? () => {} : await startScheduler(app);
  const stopEmail = single ? async () => {} : startEmailWorker(app, 100);
  const outgoingWebhooks = single ? null : await startOutgoingWebhooks(app);
  const url = http.url;
  const client = (email: string, apiKey: string, userId?: number) => new Client(url, email, apiKey, userId ?? null);
  return {
    app,
    http,
    url,
    dataDir,
    env: storage,
    single,
    clock,
    owner: client(owner.email, owner.apiKey, owner.id),
    ownerPassword: first?.password ?? "",
    anon: new Client(url, null, null),
    client,
    async newUser(u = {}) {
      const n = ++counter;
      const row = await createUser(app, (await findRealmById(app.db, realm.id))!, {
        email: u.email ?? `user${n}@example.com`,
        fullName: u.name ?? `User ${n}`,
        role: u.role ?? 400,
        password: u.password ?? null,
      });
      await app.writer.settled(); // like an HTTP answer: committed, durable, and its events delivered
      return client(row.email, row.apiKey, row.id);
    },
    async stop(so = {}) {
      stopIndexer();
      stopControl();
      stopScheduler();
      await stopEmail();
      await outgoingWebhooks?.stop();
      await plugins.stop();
      await single?.stop();
      app.queues.releaseAll();
      await http.stop(true);
      await app.writer.drain(); // on PostgreSQL, what is under way commits before the connections close
      app.close();
      if (!so.keepData) rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
