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
    run: ({ app, realm, user, args }) => createChannelFolder(app, realm, user, args),
  }),
  endpoint("GET", "/channel_folders", {
    params: { include_archived: p.bool().optional(false) },
    run: ({ app, user, args }) => listChannelFolders(app, user, args.include_archived),
  }),
  endpoint("PATCH", "/channel_folders", {
    params: { order: p.intList({ unique: false }) },
    run: ({ app, user, args }) => reorderChannelFolders(app, user, args.order),
  }),
  endpoint("PATCH", "/channel_folders/{channel_folder_id}", {
    params: { channel_folder_id: p.path.int(), ...updateChannelFolderParams },
    run: ({ app, realm, user, args }) => updateChannelFolder(app, realm, user, args.channel_folder_id, args),
  }),
];
