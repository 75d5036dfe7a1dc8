// The plugin host's hooks: the supervisor (runtime/supervisor.ts) attaches itself here and is told when
// something about an install changed, and when a plugin's bot makes an API call.
import type { App } from "../context";
import type { UserRow } from "../db/schema";

// ---- The plugin host's hooks ----

export interface PluginHost {
  /** Something about some install changed: look again. */
  changed(): void;
  /** A bot made an authenticated API call (a plugin's process "answers" with its first one). */
  botCalled(botUserId: number): void;
}

const hosts = new WeakMap<App, PluginHost>();
export const attachPluginHost = (app: App, host: PluginHost) => hosts.set(app, host);
export const detachPluginHost = (app: App) => hosts.delete(app);
export const pluginHostChanged = (app: App) => hosts.get(app)?.changed();

/** Called on every authenticated API request (actions/auth.ts): a map lookup for bots, nothing for people. */
export function noteBotCall(app: App, user: UserRow) {
  if (user.isBot) hosts.get(app)?.botCalled(user.id);
}
