// What the supervisor needs to run an install: where its files live, the installs to host, the
// environment its process gets, and the output it wrote.
import { existsSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import type { App } from "../context";
import type { PluginRow, RealmRow, UserRow } from "../db/schema";
import { effectiveSettings } from "../domain/plugins";
import { realmUrl } from "../domain/realms";
import * as store from "../store/plugins";
import { findRealmById } from "../store/realms";
import { findUserById } from "../store/users";
import { runSecretEnv, type SealedSlot } from "./secrets";
import { managed } from "./plugin-access";
import { slotContext } from "./plugin-secrets";

// ---- Files ----

/** Where an install's files live: its checkout and the output its process wrote. */
export const pluginDir = (app: App, id: number) => join(app.config.dataDir, "plugins", String(id));
export const pluginCheckout = (app: App, p: PluginRow) => join(pluginDir(app, p.id), "checkout", p.sourcePath);
export const pluginOutputFile = (app: App, id: number) => join(pluginDir(app, id), "output.log");
/** Where a process that provides tools listens for tool calls (HTTP over a Unix socket). */
export const pluginToolsSocket = (app: App, id: number) => join(pluginDir(app, id), "tools.sock");

// ---- What a process is given ----

/** The host's view of the installs it should know about (every realm). */
export const listHostedPlugins = async (app: App) => await store.listAllPlugins(app.db);

export const findPluginRow = async (app: App, id: number) => await store.findPlugin(app.db, id);

/**
 * The environment a plugin's process gets (besides PATH, HOME and the locale): the API address, its
 * bot's email and key (also under the names Zulip's API bindings read), its install id, its settings,
 * its secret slots (EXT_SECRET_<NAME>) and the organization secrets its manifest's run.secrets names;
 * and, when it provides tools, the socket to serve them on.
 */
export async function pluginRunEnv(app: App, p: PluginRow): Promise<Record<string, string>> {
  const bot = (await findUserById(app.db, p.botUserId))!;
  const site = realmUrl(app.config.externalUrl, (await findRealmById(app.db, p.realmId))!.stringId);
  const slots: SealedSlot[] = (await store.listSlots(app.db, [p.id])).map((s) => ({
    env: `EXT_SECRET_${s.name}`,
    sealed: s.sealed,
    context: slotContext(p.id, s.name),
  }));
  const { env } = await runSecretEnv(app, p.realmId, p.manifest.run?.secrets ?? [], slots);
  return {
    ...env,
    EXT_SITE: site,
    EXT_API_URL: `${site}/api/v1`,
    EXT_EMAIL: bot.email,
    EXT_API_KEY: bot.apiKey,
    EXT_INSTALL_ID: String(p.id),
    EXT_SETTINGS: JSON.stringify(effectiveSettings(p.manifest, p.settings)),
    ...(p.manifest.provides.tools?.length ? { EXT_TOOLS_SOCKET: pluginToolsSocket(app, p.id) } : {}),
    ZULIP_SITE: site,
    ZULIP_EMAIL: bot.email,
    ZULIP_API_KEY: bot.apiKey,
  };
}

/** GET /ext/plugins/{install_id}/logs: the last lines its process wrote (standard output and error); administrators. */
export async function pluginLogs(app: App, realm: RealmRow, actor: UserRow | null, id: number, lines: number) {
  const p = await managed(app, realm, actor, id);
  return { lines: readLastLines(pluginOutputFile(app, p.id), lines) };
}

export function readLastLines(file: string, n: number): string[] {
  if (!existsSync(file) || !statSync(file).isFile()) return [];
  const text = readFileSync(file, "utf8");
  const lines = text.split("\n");
  if (lines.at(-1) === "") lines.pop();
  return lines.slice(-n);
}
