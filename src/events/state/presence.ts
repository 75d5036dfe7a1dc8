import { realmPresences } from "../../serializers/presence";
import type { StateBuilder } from "./types";

/** The `presence` fetch type: modern format keyed by user id with slim_presence, else legacy by email. */
export const presenceState: StateBuilder = async ({ app, realm, user, opts }) => ({
  ...(user ? await realmPresences(app, realm.id, opts.slimPresence, opts.presenceHistoryLimitDays) : { presences: {}, presence_last_update_id: -1 }),
  server_timestamp: Date.now() / 1000,
});
