// `confab plugin list|install|remove|restore|logs`. Changes are written to the database; a running
// server's plugin host notices them within plugins.poll_ms and starts or stops the processes.
import type { Command } from "commander";
import { pluginLogs } from "../../src/actions/plugin-processes";
import { removePlugin, restorePlugin } from "../../src/actions/plugin-removal";
import { installPlugin, listPlugins } from "../../src/actions/plugins";
import type { SourceArgs } from "../../src/actions/plugin-sources";
import { findRealmRepository } from "../../src/actions/repositories";
import { action, CliError, realmOption, usingApp, withRealmOption } from "../common";

const idArg = (raw: string) => {
  if (!/^\d+$/.test(raw)) throw new CliError(`'${raw}' is not an install id`);
  return Number(raw);
};

const line = (p: { id: number; plugin: string; name: string; version: string; state: string; detail: string }) =>
  [p.id, p.plugin, p.version, p.state, p.name, p.detail.split("\n").at(-1) ?? ""].join("\t").trimEnd();

export function register(program: Command) {
  const plugin = program.command("plugin").description("manage plugins");

  withRealmOption(plugin.command("list").description("list plugin installs"))
    .option("--json", "print JSON")
    .action(
      action((opts) =>
        usingApp(opts, async (app) => {
          const list = (await listPlugins(app, await realmOption(app, opts.realm), null)).plugins;
          if (opts.json) return console.log(JSON.stringify(list));
          for (const p of list) console.log(line(p));
        }),
      ),
    );

  withRealmOption(plugin.command("install").description("install a plugin from a repository kept by this server, a code host, or a remote service"))
    .option("--repo <name>", "a repository kept by this server (confab repo list)")
    .option("--codehost <host/owner/repository>", "a repository on a code host named in plugins.codehosts")
    .option("--remote <url>", "the address of a plugin its author runs as a service")
    .option("--path <dir>", "the plugin's directory inside the repository", "")
    .option("--sha <commit>", "the commit to pin (required for --codehost; default for --repo: its current head)")
    .option("--settings <json>", "settings, as a JSON object")
    .option("--disabled", "install it turned off")
    .action(
      action((opts) =>
        usingApp(opts, async (app) => {
          const realm = await realmOption(app, opts.realm);
          const sources = [opts.repo, opts.codehost, opts.remote].filter((x) => x !== undefined);
          if (sources.length !== 1) throw new CliError("give exactly one of --repo, --codehost or --remote");
          let settings: Record<string, unknown> | undefined;
          if (opts.settings !== undefined) {
            try {
              settings = JSON.parse(opts.settings);
            } catch {
              throw new CliError("--settings is not valid JSON");
            }
            if (typeof settings !== "object" || settings === null || Array.isArray(settings)) throw new CliError("--settings must be a JSON object");
          }
          const a: SourceArgs =
            opts.repo !== undefined
              ? { source_kind: "local", source_repository_id: (await findRealmRepository(app, realm, opts.repo)).id }
              : opts.codehost !== undefined
                ? { source_kind: "codehost", source: opts.codehost }
                : { source_kind: "remote", source: opts.remote };
          const { plugin: p } = await installPlugin(app, realm, null, { ...a, source_path: opts.path, sha: opts.sha, settings, disabled: !!opts.disabled });
          console.log(`plugin ${p.id} installed: ${p.plugin} ${p.version}, ${p.state}${p.detail ? ` (${p.detail})` : ""}`);
        }),
      ),
    );

  withRealmOption(plugin.command("remove").description("remove a plugin (restore undoes it for a week)").argument("<install_id>")).action(
    action((id: string, opts) =>
      usingApp(opts, async (app) => {
        await removePlugin(app, await realmOption(app, opts.realm), null, idArg(id));
        console.log(`plugin ${id} removed`);
      }),
    ),
  );

  withRealmOption(plugin.command("restore").description("undo a plugin's removal, within a week").argument("<install_id>")).action(
    action((id: string, opts) =>
      usingApp(opts, async (app) => {
        const { plugin: p } = await restorePlugin(app, await realmOption(app, opts.realm), null, idArg(id));
        console.log(`plugin ${id} restored: ${p.state}${p.detail ? ` (${p.detail})` : ""}`);
      }),
    ),
  );

  withRealmOption(plugin.command("logs").description("print the last lines a plugin's process wrote").argument("<install_id>"))
    .option("--lines <n>", "how many", "100")
    .action(
      action((id: string, opts) =>
        usingApp(opts, async (app) => {
          const n = Number(opts.lines);
          if (!Number.isInteger(n) || n < 1) throw new CliError("--lines must be a positive integer");
          for (const l of (await pluginLogs(app, await realmOption(app, opts.realm), null, idArg(id), n)).lines) console.log(l);
        }),
      ),
    );
}
