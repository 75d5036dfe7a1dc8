import { toApiChannelFolder } from "../../domain/channel-folders";
import { listChannelFolders, webPublicFolderIds } from "../../store/channel-folders";
import type { StateBuilder } from "./types";

/**
 * `channel_folders`: every folder of the realm in display order, archived ones too (channels may still
 * name them); a spectator sees only folders holding a web-public channel.
 */
export const channelFoldersState: StateBuilder = async ({ app, realm, user }) => {
  const folders = await listChannelFolders(app.db, realm.id);
  if (user) return { channel_folders: folders.map(toApiChannelFolder) };
  const visible = await webPublicFolderIds(app.db, realm.id);
  return { channel_folders: folders.filter((f) => visible.has(f.id)).map(toApiChannelFolder) };
};
