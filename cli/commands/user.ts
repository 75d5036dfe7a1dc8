import type { Command } from "commander";
import { createUser, deactivateUser, regenerateApiKey, setPassword } from "../../src/actions/users";
import type { App } from "../../src/context";
import { ROLE_NAMES } from "../../src/domain/roles";
import { findUserByEmail, listUsers } from "../../src/store/users";
import { action, CliError, readStdin, realmOption, usingApp, withRealmOption } from "../common";

async function userOf(app: App, realm: string | undefined, email: string) {
  const r = await realmOption(app, realm);
  const user = await findUserByEmail(app.db, r.id, email);
  if (!user) throw new CliError(`no user ${email} in realm '${r.stringId}'`);
  return user;
}

export function register(program: Command) {
  const user = program.command("user").description("manage users");

  withRealmOption(user.command("create").description("create a user and print its API key").argument("<email>"))
    .requiredOption("--name <full_name>", "full name")
    .option("--role <role>", "owner, administrator, moderator, member or guest", "member")
    .option("--password-stdin", "read a password from standard input (otherwise the user has none)")
    .action(
      action((email: string, opts) =>
        usingApp(opts, async (app) => {
          const role = ROLE_NAMES[opts.role];
          if (!role) throw new CliError(`unknown role '${opts.role}' (owner, administrator, moderator, member, guest)`);
          const password = opts.passwordStdin ? await readStdin() : null;
          const u = await createUser(app, await realmOption(app, opts.realm), { email, fullName: opts.name, role, password });
          console.log(`user ${u.id} created: ${u.email}\nAPI key: ${u.apiKey}`);
        }),
      ),
    );

  withRealmOption(user.command("list").description("list users"))
    .option("--json", "print JSON")
    .action(
      action((opts) =>
        usingApp(opts, async (app) => {
          const rows = (await listUsers(app.db, (await realmOption(app, opts.realm)).id)).map((u) => ({
            id: u.id,
            email: u.email,
            full_name: u.fullName,
            role: u.role,
            is_bot: u.isBot,
            is_active: u.isActive,
          }));
          if (opts.json) console.log(JSON.stringify(rows));
          else
            for (const u of rows) console.log(`${u.id}\t${u.email}\t${u.full_name}\t${u.role}${u.is_bot ? "\tbot" : ""}${u.is_active ? "" : "\tdeactivated"}`);
        }),
      ),
    );

  withRealmOption(user.command("api-key").description("print a user's API key (alone, for scripts)").argument("<email>"))
    .option("--regenerate", "replace the key with a new one first (the old one stops working)")
    .action(
      action((email: string, opts) =>
        usingApp(opts, async (app) => {
          const u = await userOf(app, opts.realm, email);
          console.log(opts.regenerate ? await regenerateApiKey(app, u) : u.apiKey);
        }),
      ),
    );

  withRealmOption(user.command("set-password").description("set a user's password, read from standard input").argument("<email>")).action(
    action((email: string, opts) =>
      usingApp(opts, async (app) => {
        const password = await readStdin();
        if (!password) throw new CliError("no password on standard input");
        await setPassword(app, await userOf(app, opts.realm, email), password);
        console.log(`password set for ${email}`);
      }),
    ),
  );

  withRealmOption(user.command("deactivate").description("deactivate a user").argument("<email>")).action(
    action((email: string, opts) =>
      usingApp(opts, async (app) => {
        await deactivateUser(app, await userOf(app, opts.realm, email));
        console.log(`${email} deactivated`);
      }),
    ),
  );
}
