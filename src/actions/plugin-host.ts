// Telling the plugin host (runtime/supervisor.ts, through app.listeners) that something about an install
// changed, and that a plugin's bot made an API call.
import type { App } from "../context";
import type { UserRow } from "../db/schema";

/** Called after a change to an install: the host looks again (it reads through the same connection). */
export const pluginHostChanged = (app: App) => app.listeners.pluginsChanged?.();

/** Called on every authenticated API request (actions/auth.ts): nothing for people. */
export function noteBotCall(app: App, user: UserRow) {
  if (user.isBot) app.listeners.botCalled?.(user.id);
}
