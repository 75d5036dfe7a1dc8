// `confab integrations`: the incoming webhooks this server answers, with the URL to give each service.
import type { Command } from "commander";
import { INTEGRATIONS, urlTemplate } from "../../src/integrations";
import { action, configFrom, withCommon } from "../common";

export function register(program: Command) {
  withCommon(program.command("integrations").description("list the incoming webhook integrations and their URL templates"))
    .option("--json", "print JSON")
    .action(
      action((opts) => {
        const config = configFrom(opts);
        const list = INTEGRATIONS.map((i) => ({ name: i.name, display_name: i.displayName, url: urlTemplate(config.externalUrl, i), handles: i.description }));
        if (opts.json) return console.log(JSON.stringify(list));
        for (const i of list) console.log([i.name, i.url, i.handles].join("\t"));
      }),
    );
}
