import { isAdmin, isGuest } from "../../domain/roles";
import { listChannels, listDefaultChannelIds } from "../../store/channels";
import { isSubscribed } from "../../store/subscriptions";
import type { StateBuilder } from "./types";
import { channelAccess } from "../../access/channels";
import { streamObjects } from "../../serializers/channels";
import { filterInOrder } from "../../lib/in-order";

/** The `stream` fetch type: every channel the user may see (administrators: all of them). */
export const streamState: StateBuilder = async ({ app, realm, user, opts }) => {
  const archivedOk = !!opts.capabilities.archived_channels;
  const visible = await filterInOrder(await listChannels(app.db, realm.id), async (c) => {
    if (c.isArchived && !archivedOk) return false;
    if (!user) return c.isWebPublic;
    if (isAdmin(user.role)) return true;
    if (!c.inviteOnly && (!isGuest(user.role) || c.isWebPublic)) return true;
    return (await isSubscribed(app.db, user.id, c.id)) || (await channelAccess(app, user, c)).metadata;
  });
  return { streams: await streamObjects(app, realm, visible) };
};

/** The `default_streams` fetch type: ids of the channels new users join. */
export const defaultStreamsState: StateBuilder = async ({ app, realm }) => ({ realm_default_streams: await listDefaultChannelIds(app.db, realm.id) });
