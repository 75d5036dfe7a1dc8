// Who may see and do what in a channel: its permissions, the access rules for its content and
// metadata, and who hears of it. Actions check with these; register's state builders filter with them.
import type { App } from "../context";
import type { ChannelRow, SubscriptionRow, UserRow } from "../db/schema";
import { CHANNEL_PERMISSIONS, type ChannelPermission } from "../domain/channels";
import { invalidChannelId, invalidChannelName } from "../domain/errors";
import { isAdmin, isGuest } from "../domain/roles";
import { toUsers, type Audience } from "../events/types";
import * as store from "../store/channels";
import { inGroupSetting } from "../store/permissions";
import { findSubscription, subscriberIds } from "../store/subscriptions";
import { systemGroupIds } from "../store/user-groups";
import { listUsers } from "../store/users";

export interface ChannelAccess {
  channel: ChannelRow;
  sub: SubscriptionRow | undefined;
  subscribed: boolean;
  /** May read its messages (and so subscribe, for public channels). */
  content: boolean;
  /** May see that it exists, its settings and subscribers. */
  metadata: boolean;
}

/** Whether the user holds one of the channel's permissions (the one engine, with the setting's rules). */
export async function hasChannelPermission(app: App, user: UserRow, c: ChannelRow, name: ChannelPermission): Promise<boolean> {
  const value = await store.channelSetting(app.db, c, name);
  // role:everyone holds every active user: the usual value of the permissions checked on each send.
  if (value === (await systemGroupIds(app.db, c.realmId))["role:everyone"] && CHANNEL_PERMISSIONS[name].allowEveryone) return user.isActive;
  return await inGroupSetting(app.db, user, value, CHANNEL_PERMISSIONS[name]);
}

/** May administer the channel: organization administrators, and members of can_administer_channel_group. */
export const canAdministerChannel = async (app: App, user: UserRow, c: ChannelRow) =>
  isAdmin(user.role) || (await hasChannelPermission(app, user, c, "can_administer_channel_group"));

/**
 * Zulip's access rules: a public channel's content is open to every member (guests only when
 * subscribed, or when it is web-public); a private channel's content to its subscribers and to those
 * who may subscribe themselves. Its metadata is also open to administrators and channel administrators.
 */
export async function channelAccess(app: App, user: UserRow, c: ChannelRow): Promise<ChannelAccess> {
  const sub = await findSubscription(app.db, user.id, c.id);
  const subscribed = !!sub?.active;
  let content: boolean;
  if (subscribed) content = true;
  else if (!c.inviteOnly) content = !isGuest(user.role) || c.isWebPublic;
  else content = await hasChannelPermission(app, user, c, "can_subscribe_group");
  const metadata =
    content || isAdmin(user.role) || (await canAdministerChannel(app, user, c)) || (await hasChannelPermission(app, user, c, "can_add_subscribers_group"));
  return { channel: c, sub, subscribed, content, metadata };
}

/** A channel of the user's realm they may at least see, or Zulip's `Invalid channel ID`. */
export async function accessChannelById(app: App, user: UserRow, id: number, o: { content?: boolean; archived?: boolean } = {}): Promise<ChannelAccess> {
  const c = await store.findChannel(app.db, id);
  if (!c || c.realmId !== user.realmId) throw invalidChannelId();
  const a = await channelAccess(app, user, c);
  if (!(o.content ? a.content : a.metadata)) throw invalidChannelId();
  if (c.isArchived && !o.archived) throw invalidChannelId();
  return a;
}

export async function accessChannelByName(app: App, user: UserRow, name: string, o: { content?: boolean } = {}): Promise<ChannelAccess> {
  const c = await store.findChannelByName(app.db, user.realmId, name);
  if (!c || c.isArchived) throw invalidChannelName(name);
  const a = await channelAccess(app, user, c);
  if (!(o.content ? a.content : a.metadata)) throw invalidChannelName(name);
  return a;
}

/** Who may see a channel exists: every active member for public channels (guests: subscribed ones), else subscribers and administrators. */
export async function channelAudience(app: App, c: ChannelRow): Promise<number[]> {
  const subs = new Set(await subscriberIds(app.db, c.id));
  return (await listUsers(app.db, c.realmId))
    .filter((u) => u.isActive && (subs.has(u.id) || (!c.inviteOnly && (!isGuest(u.role) || c.isWebPublic)) || isAdmin(u.role)))
    .map((u) => u.id);
}

/** The audience of a channel's events, with all_public_streams queues for public channels. */
export const channelEventAudience = async (app: App, c: ChannelRow): Promise<Audience> =>
  toUsers(await channelAudience(app, c), c.inviteOnly ? {} : { publicStreamOf: c.realmId });
