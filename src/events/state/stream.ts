import { isAdmin, isGuest } from "../../domain/roles";
import { listChannels, listDefaultChannelIds } from "../../store/channels";
import { isSubscribed } from "../../store/subscriptions";
import type { StateBuilder } from "./types";
import { channelAccess } from "../../access/channels";
import { streamObjects } from "../../serializers/channels";

/** The `stream` fetch type: every channel the user may see (administrators: all of them). */
export const streamState: StateBuilder = ({ app, realm, user, opts }) => {
  const archivedOk = !!opts.capabilities.archived_channels;
  const visible = listChannels(app.db, realm.id).filter((c) => {
    if (c.isArchived && !archivedOk) return false;
    if (!user) return c.isWebPublic;
    if (isAdmin(user.role)) return true;
    if (!c.inviteOnly && (!isGuest(user.role) || c.isWebPublic)) return true;
    return isSubscribed(app.db, user.id, c.id) || channelAccess(app, user, c).metadata;
  });
  return { streams: streamObjects(app, realm, visible) };
};

/** The `default_streams` fetch type: ids of the channels new users join. */
export const defaultStreamsState: StateBuilder = ({ app, realm }) => ({ realm_default_streams: listDefaultChannelIds(app.db, realm.id) });
