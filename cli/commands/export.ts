import type { Command } from "commander";
import { exportRealmTo } from "../../src/actions/realm-exports";
import { importArchive, readExport } from "../../src/actions/realm-import";
import { realmUrl } from "../../src/domain/realms";
import { action, realmOption, usingApp, withCommon, withRealmOption } from "../common";

export function register(program: Command) {
  withRealmOption(program.command("export").description("write an organization's data in Zulip's export format (safe while the server runs)"))
    .argument("<output>", "a new directory, or a file ending in .tar.gz (Zulip's packaging)")
    .action(
      action((output: string, opts) =>
        usingApp(opts, async (app) => {
          const realm = await realmOption(app, opts.realm);
          const a = await exportRealmTo(app, realm, output);
          console.log(`exported '${realm.stringId}' to ${output}: ${a.users.length} users, ${a.channels.length} channels, ${a.messages.length} messages`);
        }),
      ),
    );
  withCommon(
    program
      .command("import")
      .description("create a NEW organization from a Zulip export or a Slack export")
      .argument("<path>", "a Zulip export (its directory or .tar.gz), or a Slack export (.zip)")
      .requiredOption("--subdomain <string_id>", "the new organization's subdomain ('' for the root host)")
      .option("--name <name>", "the organization's name (default: the export's; 'Slack import' for Slack)")
      .addHelpText(
        "after",
        `
Zulip exports: what Zulip's 'manage.py export' or 'confab export' wrote (realm.json, messages-*.json,
attachment.json, uploads/). Users, channels, subscriptions, messages with their read and starred
state, reactions and uploaded files are imported.

Slack exports: the zip a workspace administrator downloads (users.json, channels.json, groups.json,
dms.json, mpims.json, one folder of daily JSON files per conversation). Threads become topics named
after their first message, other channel messages go to the topic "imported from Slack", Slack's
formatting and mentions become Zulip's, reactions are kept; imported history is marked read.

Imported users have no password: set one with 'confab user set-password', or use their new API keys.`,
      ),
  ).action(
    action((path: string, opts) =>
      usingApp(opts, async (app) => {
        const src = await readExport(path, opts.name);
        try {
          const r = await importArchive(app, src, { subdomain: opts.subdomain, name: opts.name });
          console.log(
            `imported into realm ${r.realm.id} (${realmUrl(app.config.externalUrl, r.realm.stringId)}): ${r.users} users, ${r.channels} channels, ${r.messages} messages, ${r.reactions} reactions, ${r.files} files`,
          );
        } finally {
          await src.dispose();
        }
      }),
    ),
  );
}
