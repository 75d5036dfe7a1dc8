import { visibleBots } from "../../serializers/bots";
import type { StateBuilder } from "./types";

/** `realm_bot`: the bots the caller administers (their own; every bot for administrators), with keys. */
export const botsState: StateBuilder = async ({ app, user }) => ({ realm_bots: user ? await visibleBots(app.db, user, app.config.externalUrl) : [] });
