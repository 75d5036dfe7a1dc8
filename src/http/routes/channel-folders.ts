import {
  createChannelFolder,
  createChannelFolderParams,
  listChannelFolders,
  reorderChannelFolders,
  updateChannelFolder,
  updateChannelFolderParams,
} from "../../actions/channel-folders";
import { endpoint } from "../endpoint";
import { p } from "../../domain/params";

export default [
  endpoint("POST", "/channel_folders/create", {
    params: createChannelFolderParams,
    run: async ({ app, realm, user, args }) => await createChannelFolder(app, realm, user, args),
  }),
  endpoint("GET", "/channel_folders", {
    params: { include_archived: p.bool().optional(false) },
    run: async ({ app, user, args }) => await listChannelFolders(app, user, args.include_archived),
  }),
  endpoint("PATCH", "/channel_folders", {
    params: { order: p.intList({ unique: false }) },
    run: async ({ app, user, args }) => await reorderChannelFolders(app, user, args.order),
  }),
  endpoint("PATCH", "/channel_folders/{channel_folder_id}", {
    params: { channel_folder_id: p.path.int(), ...updateChannelFolderParams },
    run: async ({ app, realm, user, args }) => await updateChannelFolder(app, realm, user, args.channel_folder_id, args),
  }),
];
