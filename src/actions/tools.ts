// The agent's use of plugin tools: which tools it may call, and the call itself, forwarded to the
// plugin by actions/plugins.ts (HTTP POST /tools/<name> on the plugin's socket or address). Only the
// agent's bot, during a run, calls them; a plugin's disabled_tools are neither listed nor callable.
import type { App } from "../context";
import type { RealmRow, UserRow } from "../db/schema";
import { listPlugins } from "../store/plugins";
import { callPluginTool } from "./plugin-tools";
import { requireRun } from "./run-keys";

/** GET /ext/agent/tools: the tools of the organization's running plugins the agent may call (with a run's key). */
export async function listAgentTools(app: App, realm: RealmRow, user: UserRow, key: string | undefined) {
  await requireRun(app, user, key);
  const tools = (await listPlugins(app.db, realm.id))
    .filter((p) => p.state === "running" && !p.disabled)
    .flatMap((p) =>
      (p.manifest.provides.tools ?? [])
        .filter((t) => !p.disabledTools.includes(t.name))
        .map((t) => ({ install_id: p.id, plugin: p.plugin, name: t.name, description: t.description, input: t.input ?? null })),
    );
  return { tools };
}

/** POST /ext/agent/tools/{install_id}/{tool}: calls the tool with `input` (with a run's key); `output` is what the plugin answered. */
export async function callAgentTool(app: App, realm: RealmRow, user: UserRow, key: string | undefined, installId: number, tool: string, input: unknown) {
  const run = await requireRun(app, user, key);
  app.log.info("agent tool call", { run: run.id, install_id: installId, tool });
  return { output: await callPluginTool(app, realm, null, installId, tool, input) };
}
