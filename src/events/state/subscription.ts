import type { ChannelRow } from "../../db/schema";
import { notificationDefaults, resolveNotificationSettings, toApiStream, toApiSubscription } from "../../domain/channels";
import { isAdmin } from "../../domain/roles";
import { userSetting, type UserSettingName } from "../../domain/user-settings";
import { channelStats, listChannels } from "../../store/channels";
import { listUserSubscriptions, realmSubscribers } from "../../store/subscriptions";
import { recentlyActiveUserIds } from "../../store/users";
import type { StateBuilder } from "./types";
import { channelAccess } from "../../access/channels";

/** Channels with this many subscribers or more list only partial_subscribers when include_subscribers is "partial". */
const PARTIAL_THRESHOLD = 250;
const RECENT_SECONDS = 14 * 24 * 3600;

/**
 * The `subscription` fetch type: the user's channels (`subscriptions`), channels they left
 * (`unsubscribed`) and channels they may see but never joined (`never_subscribed`). Archived channels
 * only for clients with archived_channels. Subscribers per include_subscribers (true, false, partial).
 */
export const subscriptionState: StateBuilder = async ({ app, realm, user, opts }) => {
  const archivedOk = !!opts.capabilities.archived_channels;
  const channels = (await listChannels(app.db, realm.id)).filter((c) => archivedOk || !c.isArchived);
  const stats = await channelStats(app.db, realm.id, channels, app.now());
  if (!user) {
    const open = channels.filter((c) => c.isWebPublic);
    return { subscriptions: [], unsubscribed: [], never_subscribed: open.map((c) => toApiStream(c, stats.get(c.id)!)) };
  }
  const include = opts.includeSubscribers;
  const members = include ? await realmSubscribers(app.db, realm.id) : null;
  let recent: Set<number> | null = null;
  if (include === "partial") {
    recent = new Set(await recentlyActiveUserIds(app.db, realm.id, app.now() - RECENT_SECONDS));
  }
  const listing = (c: ChannelRow) => {
    if (!members) return undefined;
    const all = members.get(c.id) ?? [];
    if (recent && all.length >= PARTIAL_THRESHOLD) return { partial_subscribers: all.filter((id) => recent!.has(id)) };
    return { subscribers: all };
  };
  const subs = new Map((await listUserSubscriptions(app.db, user.id)).map((s) => [s.channelId, s]));
  // Clients without notification_settings_null get what a null setting inherits instead of the null.
  const defaults = opts.capabilities.notification_settings_null ? null : notificationDefaults((n) => userSetting(user, n as UserSettingName));
  const shown = <T extends Record<string, unknown>>(sub: T) => (defaults ? resolveNotificationSettings(sub, defaults) : sub);
  const subscriptions = [];
  const unsubscribed = [];
  const neverSubscribed = [];
  for (const c of channels) {
    const sub = subs.get(c.id);
    if (sub?.active) {
      subscriptions.push(shown(toApiSubscription(c, sub, stats.get(c.id)!, listing(c))));
      continue;
    }
    const access = await channelAccess(app, user, c);
    if (sub) {
      if (!access.metadata && !c.historyPublicToSubscribers) continue;
      unsubscribed.push(shown(toApiSubscription(c, sub, stats.get(c.id)!, access.metadata ? listing(c) : undefined)));
    } else if (access.metadata) {
      neverSubscribed.push({ ...toApiStream(c, stats.get(c.id)!), ...(!c.inviteOnly || isAdmin(user.role) ? listing(c) : {}) });
    }
  }
  return { subscriptions, unsubscribed, never_subscribed: neverSubscribed };
};
