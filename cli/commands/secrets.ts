// `confab secrets set|list|rm`: organization secrets from the shell. A value is read from standard
// input, never from an argument (arguments show in `ps` and shell history).
import type { Command } from "commander";
import { addSecret, deleteSecret, listSecrets, updateSecret } from "../../src/actions/secrets";
import { findSecret } from "../../src/store/secrets";
import { action, CliError, readStdin, realmOption, usingApp, withRealmOption } from "../common";

export function register(program: Command) {
  const secrets = program.command("secrets").description("manage organization secrets (values are read from standard input)");

  withRealmOption(secrets.command("set").description("add a secret, or give it a new value, read from standard input").argument("<name>"))
    .option("--note <text>", "what it is for")
    .action(
      action((name: string, opts) =>
        usingApp(opts, async (app) => {
          const value = await readStdin();
          if (!value) throw new CliError("no value on standard input");
          const realm = await realmOption(app, opts.realm);
          if (await findSecret(app.db, realm.id, name)) {
            await updateSecret(app, realm, null, name, { secret: value, note: opts.note });
            console.log(`secret ${name} replaced`);
          } else {
            const { secret } = await addSecret(app, realm, null, { name, secret: value, note: opts.note ?? "" });
            console.log(`secret ${name} added${secret.hint ? ` (ends in ${secret.hint})` : ""}`);
          }
        }),
      ),
    );

  withRealmOption(secrets.command("list").description("list secrets (never their values)"))
    .option("--json", "print JSON")
    .action(
      action((opts) =>
        usingApp(opts, async (app) => {
          const list = (await listSecrets(app, await realmOption(app, opts.realm), null)).secrets;
          if (opts.json) return console.log(JSON.stringify(list));
          for (const s of list) console.log([s.name, s.hint ? `…${s.hint}` : "-", s.note].join("\t").trimEnd());
        }),
      ),
    );

  withRealmOption(secrets.command("rm").description("delete a secret").argument("<name>")).action(
    action((name: string, opts) =>
      usingApp(opts, async (app) => {
        await deleteSecret(app, await realmOption(app, opts.realm), null, name);
        console.log(`secret ${name} deleted`);
      }),
    ),
  );
}
