import type { Command } from "commander";
import { hostname } from "node:os";
import { addStarterContent, bootstrapFirstRealm } from "../../src/actions/realms";
import { createApp } from "../../src/app";
import type { App } from "../../src/context";
import type { Config } from "../../src/config";
import { listen } from "../../src/http/server";
import { createLogger } from "../../src/lib/log";
import { detached } from "../../src/lib/detached";
import { startPluginHost } from "../../src/runtime/supervisor";
import { failInterruptedExports } from "../../src/actions/realm-exports";
import { SingleNodeWork } from "../../src/runtime/single-node-work";
import { closeAllReadmes } from "../../src/actions/readme";
import { startControlSocket } from "../../src/runtime/control";
import { startIntegrityCheck } from "../../src/runtime/integrity";
import { startBackups } from "../../src/runtime/backups";
import { acquirePidFile } from "../pidfile";
import { action, configFrom, withCommon } from "../common";

/** The longest a shutdown takes; plugins get plugins.shutdown_grace_ms of it. */
const SHUTDOWN_MS = 20_000;
/** How long after listening the background work starts (see startBackground). */
const BACKGROUND_DELAY_MS = 50;

interface Background {
  /** Stops the timers, before the server stops accepting. */
  stopTimers(): void;
  plugins: { stop(): Promise<void> };
}

/**
 * Work no request waits for: the integrity check (a thread of its own), backups, event queue
 * collection, plugin processes, and the work of one node (runtime/single-node-work.ts: the agent,
 * housekeeping, the search indexer, the scheduler, mail and outgoing webhooks; on PostgreSQL under a
 * lease). Each catches up on what was queued in the database before it started.
 */
async function startBackground(app: App, single: SingleNodeWork): Promise<Background> {
  const stopIntegrity = startIntegrityCheck(app);
  const stopBackups = startBackups(app);
  app.queues.startGc();
  const plugins = await startPluginHost(app);
  await single.start();
  return {
    stopTimers() {
      stopIntegrity();
      stopBackups();
    },
    plugins,
  };
}

export function register(program: Command) {
  withCommon(program.command("serve").description("start the server"))
    .option("--host <host>", "address to listen on")
    .option("--port <port>", "port to listen on")
    .action(
      action(async (opts) => {
        // Where a start's time goes, in the "listening" line (ms since the process began, per phase).
        const phases: string[] = [];
        let mark = 0;
        const phase = (name: string) => phases.push(`${name} ${(-mark + (mark = performance.now())).toFixed(1)}`);
        phase("modules");
        const config = configFrom(opts);
        const log = createLogger(config.logLevel);
        const app = await createApp(config, { batching: true, log });
        const release = acquirePidFile(config.dataDir, app.node?.name ?? null);
        phase("app");
        const first = await bootstrapFirstRealm(app);
        await failInterruptedExports(app);
        phase("first_realm");
        const single = new SingleNodeWork(app);
        await single.listen(); // before any request: the agent hears every message sent
        const http = listen(app, config.listen.host, config.listen.port);
        const stopControl = startControlSocket(app);
        await app.node?.join(nodeAddress(config, http.port)); // other nodes may forward polls here from now on
        phase("http");
        // Shutdown: stop accepting, answer held long-polls, let in-flight requests finish (each answers
        // once its batch committed), commit what is left, stop plugins and the agent, exit. Bounded: past
        // SHUTDOWN_MS the process exits anyway (what was answered is committed; the rest never was).
        let background: Background | null = null;
        let stopping = false;
        const stop = async () => {
          if (stopping) return;
          stopping = true;
          log.info("shutting down");
          setTimeout(() => {
            log.error("shutdown took too long; exiting");
            process.exit(1);
          }, SHUTDOWN_MS);
          background?.stopTimers();
          stopControl();
          const drained = http.stop();
          app.queues.releaseAll();
          const late = setTimeout(
            detached(log, "shutdown failed", () => http.stop(true)),
            SHUTDOWN_MS / 2,
          ); // requests still running: cut
          await drained;
          clearTimeout(late);
          await app.node?.leave().catch((e: unknown) => log.warn("leaving the cluster failed", { error: String((e as Error)?.message ?? e) }));
          await app.writer.drain();
          await background?.plugins.stop();
          await single.stop(); // a mail being sent is marked sent, the agent's turns end; the rest waits in the database
          closeAllReadmes(app); // edits not yet written reach the README files
          await app.writer.drain(); // what the agent's and plugins' stops wrote (on PostgreSQL a COMMIT may be under way)
          app.close();
          release();
          process.exit(0);
        };
        const onSignal = detached(log, "shutdown failed", stop); // the SHUTDOWN_MS timer still ends the process
        process.on("SIGINT", onSignal);
        process.on("SIGTERM", onSignal);
        // What can wait starts a moment after listening, so the first requests are not queued behind it.
        await Bun.sleep(BACKGROUND_DELAY_MS);
        if (stopping) return;
        if (first) await addStarterContent(app, first.realm, first.owner); // before the owner is told how to log in
        background = await startBackground(app, single);
        if (first) {
          await first.setPassword();
          printFirstRun(config.externalUrl, first);
        }
        log.info("listening", { url: http.url, data_dir: config.dataDir, ...(app.node ? { node: app.node.name } : {}), start_ms: phases.join(", ") });
        // The executable starts with JavaScriptCore's tier-up thresholds raised (scripts/build.ts), so code
        // that runs once at start stays in the interpreter; from here on the JIT works as usual.
        Bun.unsafe.setJITPolicy(1);
        // `kill -USR2 <pid>`: one log line with memory after a full collection, for operators and benchmarks.
        process.on("SIGUSR2", () => log.warn("memory", memoryReport(app)));
      }),
    );
}

/**
 * Where the other nodes reach this one (PostgreSQL): cluster.advertise_url, else the listening address,
 * with this machine's host name when it listens on every interface.
 */
function nodeAddress(config: Config, port: number): string {
  if (config.cluster.advertiseUrl) return config.cluster.advertiseUrl;
  const host = config.listen.host === "0.0.0.0" || config.listen.host === "::" ? hostname() : config.listen.host;
  return `${config.tls.cert ? "https" : "http"}://${host.includes(":") ? `[${host}]` : host}:${port}`;
}

function memoryReport(app: App) {
  Bun.gc(true);
  const mb = (n: number) => Math.round((n / 2 ** 20) * 100) / 100;
  const m = process.memoryUsage();
  return { rss_mb: mb(m.rss), heap_used_mb: mb(m.heapUsed), ...app.queues.stats() };
}

/** Shown once, on the start that created the first organization. */
function printFirstRun(url: string, f: { realm: { name: string }; owner: { email: string; apiKey: string }; password: string }) {
  const lines = [
    "",
    "  confab created your organization. Keep these; they are shown only this once.",
    "",
    `    URL:          ${url}`,
    `    organization: ${f.realm.name}`,
    `    owner email:  ${f.owner.email}`,
    `    password:     ${f.password}`,
    `    API key:      ${f.owner.apiKey}`,
    "",
    `  Try: curl -u '${f.owner.email}:${f.owner.apiKey}' ${url}/api/v1/users/me`,
    "",
  ];
  process.stdout.write(lines.join("\n") + "\n");
}
