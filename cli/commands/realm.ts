import type { Command } from "commander";
import { createRealm, setRealmDeactivated } from "../../src/actions/realms";
import { listRealms } from "../../src/store/realms";
import { realmUrl } from "../../src/domain/realms";
import { action, readStdin, realmOption, usingApp, withCommon } from "../common";

export function register(program: Command) {
  const realm = program.command("realm").description("manage organizations (realms)");
  withCommon(realm.command("create").description("create an organization with its owner"))
    .requiredOption("--subdomain <string_id>", "subdomain the realm is served on ('' for the root host)")
    .requiredOption("--name <name>", "organization name")
    .requiredOption("--owner-email <email>", "the owner's email")
    .option("--owner-name <name>", "the owner's full name", "Owner")
    .option("--password-stdin", "read the owner's password from standard input (otherwise one is generated)")
    .action(
      action((opts) =>
        usingApp(opts, async (app) => {
          const password = opts.passwordStdin ? await readStdin() : undefined;
          const r = await createRealm(app, {
            stringId: opts.subdomain,
            name: opts.name,
            ownerEmail: opts.ownerEmail,
            ownerName: opts.ownerName,
            ownerPassword: password,
          });
          const lines = [
            `realm ${r.realm.id} created: ${realmUrl(app.config.externalUrl, r.realm.stringId)}`,
            `owner email: ${r.owner.email}`,
            ...(password ? [] : [`password:    ${r.password}`]),
            `API key:     ${r.owner.apiKey}`,
          ];
          console.log(lines.join("\n"));
        }),
      ),
    );
  withCommon(realm.command("list").description("list organizations"))
    .option("--json", "print JSON")
    .action(
      action((opts) =>
        usingApp(opts, async (app) => {
          const rows = (await listRealms(app.db)).map((r) => ({
            id: r.id,
            subdomain: r.stringId,
            name: r.name,
            url: realmUrl(app.config.externalUrl, r.stringId),
            deactivated: r.deactivated,
          }));
          if (opts.json) console.log(JSON.stringify(rows));
          else for (const r of rows) console.log(`${r.id}\t${r.subdomain || "(root)"}\t${r.name}\t${r.url}${r.deactivated ? "\tdeactivated" : ""}`);
        }),
      ),
    );
  for (const [name, deactivated] of [
    ["deactivate", true],
    ["reactivate", false],
  ] as const)
    withCommon(
      realm
        .command(name)
        .description(`${name} an organization (its users ${deactivated ? "can no longer" : "can again"} log in)`)
        .argument("<subdomain>", "the realm's subdomain ('' for the root host)"),
    ).action(
      action((subdomain: string, opts) =>
        usingApp(opts, async (app) => {
          await setRealmDeactivated(app, await realmOption(app, subdomain), deactivated);
          console.log(`realm '${subdomain}' ${name}d`);
        }),
      ),
    );
}
