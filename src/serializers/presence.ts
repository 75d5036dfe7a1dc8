// The realm's presences as register and GET /realm/presence show them.
import type { App } from "../context";
import { legacyPresence, modernPresence } from "../domain/presence";
import * as store from "../store/presence";

/** Presence of a realm's users: modern format keyed by user id, or legacy keyed by email. */
export async function realmPresences(app: App, realmId: number, modern: boolean, historyDays: number, afterUpdateId = -1) {
  const rows = await store.listPresences(app.db, realmId, app.now() - historyDays * 86400, afterUpdateId);
  const presences: Record<string, unknown> = {};
  for (const { p, email } of rows) presences[modern ? String(p.userId) : email] = modern ? modernPresence(p) : legacyPresence(p);
  return { presences, presence_last_update_id: await store.maxPresenceUpdateId(app.db, realmId) };
}
