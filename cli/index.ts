#!/usr/bin/env bun
// The executable's entry: `confab <command>`. Each command lives in cli/commands and calls actions.
import { Command } from "commander";
import { FEATURE_LEVEL, SERVICE_VERSION } from "../src/version";
import { register as db } from "./commands/db";
import { register as realm } from "./commands/realm";
import { register as serve } from "./commands/serve";
import { register as user } from "./commands/user";
import { register as secrets } from "./commands/secrets";
import { register as repo } from "./commands/repo";
import { register as plugin } from "./commands/plugin";
import { register as email } from "./commands/email";
import { register as exportImport } from "./commands/export";
import { register as integrations } from "./commands/integrations";
import { register as ops } from "./commands/ops";
import { action, configFrom, withCommon } from "./common";

const program = new Command("confab")
  .description("confab: a self-hosted team chat server that speaks the Zulip API")
  // Usage errors, like every other failure, are one line on stderr and a non-zero exit.
  .configureOutput({ outputError: (text, write) => write(`confab: ${text.replace(/^error: /, "").trim()} (see --help)\n`) })
  .exitOverride((err) => process.exit(err.exitCode === 0 ? 0 : 1));

serve(program);
// `confab serve` starts without declaring the other commands (about 40 with their options: 1-2 ms of
// every start); everything else, `confab --help` and a mistyped command included, sees them all.
if (process.argv[2] !== "serve") for (const register of [realm, user, db, secrets, repo, plugin, email, exportImport, integrations, ops]) register(program);
withCommon(program.command("version").description("print the version and API feature level")).action(
  action((opts) => {
    configFrom(opts); // a bad config is reported by every command, this one included
    console.log(`confab ${SERVICE_VERSION} (feature level ${FEATURE_LEVEL})`);
  }),
);

await program.parseAsync(process.argv);
