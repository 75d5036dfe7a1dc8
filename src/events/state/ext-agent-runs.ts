import { liveRunsFor } from "../../access/agent-runs";
import { isGuest } from "../../domain/roles";
import type { StateBuilder } from "./types";

/** `ext_agent_run` → `ext_agent_runs`: the live runs of conversations the user can read (human members only). */
export const extAgentRunsState: StateBuilder = async ({ app, user }) => ({
  ext_agent_runs: user && !user.isBot && !isGuest(user.role) ? await liveRunsFor(app, user) : [],
});
