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
import { mapInOrder, filterInOrder } from "../lib/in-order";

export async function dmParticipants(app: App, run: AgentRunRow): Promise<UserRow[]> {
  const key = (await findRecipient(app.db, run.recipientId))?.dmKey;
  return key ? (await mapInOrder(dmKeyMembers(key), async (id) => (await findUserById(app.db, id))!)).filter(Boolean) : [];
}

export async function canSeeRun(app: App, user: UserRow, run: AgentRunRow): Promise<boolean> {
  if (run.realmId !== user.realmId) return false;
  if (run.channelId === null) return (await dmParticipants(app, run)).some((u) => u.id === user.id);
  const c = await findChannel(app.db, run.channelId);
  return !!c && (await channelAccess(app, user, c)).content;
}

/** Register's `ext_agent_runs`: the live runs of conversations the user can read. */
export const liveRunsFor = async (app: App, user: UserRow) =>
  (await filterInOrder(await store.listLiveRuns(app.db, user.realmId), async (r) => await canSeeRun(app, user, r))).map(toApiRun);
