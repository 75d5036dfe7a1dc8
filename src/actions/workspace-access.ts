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
export function channelReaderIds(app: App, c: ChannelRow): number[] {
  const subscribed = new Set(subscriberIds(app.db, c.id));
  return listUsers(app.db, c.realmId)
    .filter((u) => u.isActive && !u.isBot && (subscribed.has(u.id) || (!c.inviteOnly && !isGuest(u.role))))
    .map((u) => u.id);
}

/** A workspace in a channel the user can read, or `Workspace does not exist`. */
export function readableWorkspace(app: App, user: UserRow, uuid: string): WorkspaceRow {
  const w = store.findWorkspace(app.db, uuid);
  const c = w && w.realmId === user.realmId ? findChannel(app.db, w.channelId) : undefined;
  if (!w || !c || !channelAccess(app, user, c).content) throw noSuchWorkspace();
  return w;
}

/** The workspace of a topic, for the agent's turns there. */
export function topicWorkspace(app: App, channelId: number, topic: string): { uuid: string; dir: string } | null {
  const w = store.findTopicWorkspace(app.db, channelId, topic);
  return w ? { uuid: w.uuid, dir: workspaceDir(app, w) } : null;
}
