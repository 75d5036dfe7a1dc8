// Channel folders (Zulip 11, level 389): limits, name rules and the ChannelFolder object.
import { unprintableAt } from "../lib/text";
import type { ChannelFolderRow } from "../db/schema";
import { channelFolderNameCantBeEmpty, invalidCharacterChannelFolderName } from "./errors";

/** Zulip's limits, announced in register as max_channel_folder_name_length / _description_length. */
export const MAX_CHANNEL_FOLDER_NAME_LENGTH = 60;
export const MAX_CHANNEL_FOLDER_DESCRIPTION_LENGTH = 1024;

/** Checks and cleans a folder name (Zulip's check_channel_folder_name, less uniqueness); returns it trimmed. */
export function checkChannelFolderName(name: string): string {
  const n = name.trim();
  if (!n) throw channelFolderNameCantBeEmpty();
  const bad = unprintableAt(n);
  if (bad) throw invalidCharacterChannelFolderName(bad);
  return n;
}

/** The ChannelFolder object (GET /channel_folders, register `channel_folders`, channel_folder/add). */
export const toApiChannelFolder = (f: ChannelFolderRow) => ({
  id: f.id,
  name: f.name,
  description: f.description,
  rendered_description: f.renderedDescription,
  order: f.order,
  creator_id: f.creatorId,
  date_created: f.dateCreated,
  is_archived: f.isArchived,
});
