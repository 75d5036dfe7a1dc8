// Who may see a widget's scope: the plugin's viewers, narrowed to a link's channel readers.
import type { Db } from "../db/client";
import type { PluginLinkRow, PluginRow, UserRow } from "../db/schema";
import { isGuest } from "../domain/roles";
import { findChannel } from "../store/channels";
import { subscriberIds } from "../store/subscriptions";
import { listUsers } from "../store/users";
import * as store from "../store/widgets";
import { canSeePlugin } from "./plugins";

/** Readers of a channel's content: its subscribers, and for a public channel every member (guests never see widgets). */
export async function channelReaders(db: Db, realmId: number, streamId: number): Promise<Set<number>> {
  const c = await findChannel(db, streamId);
  if (!c) return new Set();
  const subs = new Set(await subscriberIds(db, c.id));
  return new Set((await listUsers(db, realmId)).filter((u) => u.isActive && !isGuest(u.role) && (subs.has(u.id) || !c.inviteOnly)).map((u) => u.id));
}

export async function canSeeScope(db: Db, user: UserRow, p: PluginRow, link: PluginLinkRow | undefined): Promise<boolean> {
  if (!canSeePlugin(user, p) || p.dateRemoved !== null) return false;
  return !link || (await channelReaders(db, p.realmId, link.streamId)).has(user.id);
}
