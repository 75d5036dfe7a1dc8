import { createChannelFolder, listChannelFolders, reorderChannelFolders, updateChannelFolder } from "../../actions/channel-folders";
import { MAX_CHANNEL_FOLDER_DESCRIPTION_LENGTH, MAX_CHANNEL_FOLDER_NAME_LENGTH } from "../../domain/channel-folders";
import { endpoint } from "../endpoint";
import { p } from "../params";

const name = () => p.str({ max: MAX_CHANNEL_FOLDER_NAME_LENGTH });
const description = () => p.str({ max: MAX_CHANNEL_FOLDER_DESCRIPTION_LENGTH });

export default [
  endpoint("POST", "/channel_folders/create", {
    params: { name: name(), description: description().optional("") },
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
    params: { channel_folder_id: p.path.int(), name: name().optional(), description: description().optional(), is_archived: p.bool().optional() },
    run: ({ app, realm, user, args }) => updateChannelFolder(app, realm, user, args.channel_folder_id, args),
  }),
];
