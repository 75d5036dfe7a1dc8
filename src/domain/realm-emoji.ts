import type { RealmEmojiRow } from "../db/schema";
import { ApiError, invalidParam } from "./errors";

export const MAX_EMOJI_FILE_MIB = 5;

/** Zulip's name rule and wording: lowercase letters, digits, dashes, underscores; ends with a letter or digit. */
export function checkEmojiName(name: string) {
  if (!name) throw invalidParam("Emoji name is missing");
  if (/^[0-9a-z\-_]+$/.test(name)) {
    if (!/[0-9a-z]$/.test(name)) throw invalidParam("Emoji names must end with either a letter or digit.");
    return;
  }
  throw invalidParam("Emoji names must contain only lowercase English letters, digits, spaces, dashes, and underscores.");
}

export const emojiExists = () => invalidParam("A custom emoji with this name already exists.");
export const emojiMissing = (name: string) => new ApiError("BAD_REQUEST", `Emoji '${name}' does not exist`, 400);
export const notEmojiAuthor = () => invalidParam("Must be an organization administrator or emoji author");

/** The realm emoji object (source_url relative to the server, like Zulip's). */
export const toApiRealmEmoji = (e: RealmEmojiRow) => ({
  id: String(e.id),
  name: e.name,
  source_url: `/user_avatars/${e.realmId}/emoji/images/${e.fileName}`,
  still_url: null,
  deactivated: e.deactivated,
  author_id: e.authorId,
});

/** The register/event shape: every emoji keyed by id. */
export const realmEmojiMap = (rows: RealmEmojiRow[]) => Object.fromEntries(rows.map((e) => [String(e.id), toApiRealmEmoji(e)]));
