import type { Command } from "commander";
import { bootstrapFirstRealm } from "../../src/actions/realms";
import { createApp, type App } from "../../src/app";
import { listen } from "../../src/http/server";
import { createLogger } from "../../src/lib/log";
import { startPluginHost } from "../../src/runtime/supervisor";
import { startAgent } from "../../src/runtime/agent";
import { startOutgoingWebhooks } from "../../src/runtime/outgoing-webhooks";
import { startHousekeeping, startSearchIndexer } from "../../src/runtime/housekeeping";
import { closeAllReadmes } from "../../src/actions/readme";
import { acquirePidFile } from "../pidfile";
import { action, configFrom, withCommon } from "../common";

export function register(program: Command) {
  withCommon(program.command("serve").description("start the server"))
    .option("--host <host>", "address to listen on")
    .option("--port <port>", "port to listen on")
    .action(
      action(async (opts) => {
        const config = configFrom(opts);
        const log = createLogger(config.logLevel);
        const app = createApp(config, { batching: true, log });
        const release = acquirePidFile(config.dataDir);
        const first = bootstrapFirstRealm(app);
        const http = listen(app, config.listen.host, config.listen.port);
        app.queues.startGc();
        const plugins = startPluginHost(app);
        const agent = startAgent(app);
        const outgoingWebhooks = startOutgoingWebhooks(app);
        const stopHousekeeping = startHousekeeping(app, config.housekeeping.intervalSeconds);
        const stopIndexer = startSearchIndexer(app);
        if (first) {
          await first.passwordSet;
          printFirstRun(config.externalUrl, first);
        }
        log.info("listening", { url: http.url, data_dir: config.dataDir });
        let stopping = false;
        const stop = async () => {
          if (stopping) return;
          stopping = true;
          log.info("shutting down");
          stopHousekeeping();
          stopIndexer();
          await plugins.stop(); // while the API still answers them
          await http.stop();
          await agent.stop();
          await outgoingWebhooks.stop();
          closeAllReadmes(app); // edits not yet written reach the README files
          app.close();
          release();
          process.exit(0);
        };
        process.on("SIGINT", stop);
        process.on("SIGTERM", stop);
        // `kill -USR2 <pid>`: one log line with memory after a full collection, for operators and benchmarks.
        process.on("SIGUSR2", () => log.warn("memory", memoryReport(app)));
      }),
    );
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
