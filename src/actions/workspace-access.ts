// Where a topic workspace lives and who may read it: its directory, the users who hear of it, and the
// check every workspace action (and the README editor) makes first.
import { join } from "node:path";
import type { App } from "../context";
import type { ChannelRow, UserRow, WorkspaceRow } from "../db/schema";
import { noSuchWorkspace } from "../domain/errors";
import { isGuest } from "../domain/roles";
import { findChannel } from "../store/channels";
import { subscriberIds } from "../store/subscriptions";
import { listUsers } from "../store/users";
import * as store from "../store/workspaces";
import { channelAccess } from "../access/channels";

export const workspaceDir = (app: App, w: WorkspaceRow) => join(app.config.dataDir, "workspaces", w.uuid);

/** Active human users who can read a channel's messages: they hear of its workspaces and the agent's runs there. */
export async function channelReaderIds(app: App, c: ChannelRow): Promise<number[]> {
  const subscribed = new Set(await subscriberIds(app.db, c.id));
  return (await listUsers(app.db, c.realmId))
    .filter((u) => u.isActive && !u.isBot && (subscribed.has(u.id) || (!c.inviteOnly && !isGuest(u.role))))
    .map((u) => u.id);
}

/** A workspace in a channel the user can read, or `Workspace does not exist`. */
export async function readableWorkspace(app: App, user: UserRow, uuid: string): Promise<WorkspaceRow> {
  const w = await store.findWorkspace(app.db, uuid);
  const c = w && w.realmId === user.realmId ? await findChannel(app.db, w.channelId) : undefined;
  if (!w || !c || !(await channelAccess(app, user, c)).content) throw noSuchWorkspace();
  return w;
}

/** The workspace of a topic, for the agent's turns there. */
export async function topicWorkspace(app: App, channelId: number, topic: string): Promise<{ uuid: string; dir: string } | null> {
  const w = await store.findTopicWorkspace(app.db, channelId, topic);
  return w ? { uuid: w.uuid, dir: workspaceDir(app, w) } : null;
}
