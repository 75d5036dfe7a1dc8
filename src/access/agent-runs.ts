// Which agent runs a user may see: those in conversations they can read.
import type { App } from "../context";
import type { AgentRunRow, UserRow } from "../db/schema";
import { dmKeyMembers } from "../domain/messages";
import { toApiRun } from "../domain/agent-runs";
import * as store from "../store/agent-runs";
import { findChannel } from "../store/channels";
import { findRecipient } from "../store/messages";
import { findUserById } from "../store/users";
import { channelAccess } from "../access/channels";

export function dmParticipants(app: App, run: AgentRunRow): UserRow[] {
  const key = findRecipient(app.db, run.recipientId)?.dmKey;
  return key
    ? dmKeyMembers(key)
        .map((id) => findUserById(app.db, id)!)
        .filter(Boolean)
    : [];
}

export function canSeeRun(app: App, user: UserRow, run: AgentRunRow): boolean {
  if (run.realmId !== user.realmId) return false;
  if (run.channelId === null) return dmParticipants(app, run).some((u) => u.id === user.id);
  const c = findChannel(app.db, run.channelId);
  return !!c && channelAccess(app, user, c).content;
}

/** Register's `ext_agent_runs`: the live runs of conversations the user can read. */
export const liveRunsFor = (app: App, user: UserRow) =>
  store
    .listLiveRuns(app.db, user.realmId)
    .filter((r) => canSeeRun(app, user, r))
    .map(toApiRun);
