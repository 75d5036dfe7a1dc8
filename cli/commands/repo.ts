// `confab repo create|import|list`: the git repositories this server keeps (plugin sources).
import type { Command } from "commander";
import { createRepository, importIntoRepository, listRepositories } from "../../src/actions/repositories";
import { action, realmOption, usingApp, withRealmOption } from "../common";

export function register(program: Command) {
  const repo = program.command("repo").description("manage the git repositories this server keeps");

  withRealmOption(repo.command("create").description("create an empty repository").argument("<name>"))
    .option("--description <text>", "what it holds")
    .action(
      action((name: string, opts) =>
        usingApp(opts, async (app) => {
          const { repository } = await createRepository(app, await realmOption(app, opts.realm), null, { name, description: opts.description ?? "" });
          console.log(`repository ${repository.id} created: ${repository.name}`);
        }),
      ),
    );

  withRealmOption(
    repo
      .command("import")
      .description("import a directory (committed as the next commit) or a git repository (its branches and tags) into a repository")
      .argument("<name>")
      .argument("<path>"),
  )
    .option("--message <text>", "commit message for a directory import")
    .action(
      action((name: string, path: string, opts) =>
        usingApp(opts, async (app) => {
          const { repository } = await importIntoRepository(app, await realmOption(app, opts.realm), null, name, path, { message: opts.message });
          console.log(`${repository.name} is at ${repository.head || "(empty)"}`);
        }),
      ),
    );

  withRealmOption(repo.command("list").description("list repositories"))
    .option("--json", "print JSON")
    .action(
      action((opts) =>
        usingApp(opts, async (app) => {
          const list = (await listRepositories(app, await realmOption(app, opts.realm), null)).repositories;
          if (opts.json) return console.log(JSON.stringify(list));
          for (const r of list) console.log([r.id, r.name, r.head || "-", r.description].join("\t").trimEnd());
        }),
      ),
    );
}
