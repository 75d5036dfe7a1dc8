import type { RealmEmojiRow } from "../db/schema";
import { emojiExists, emojiNameMissing, emojiNamesMustContainOnly, emojiNamesMustEndEither, notEmojiAuthor } from "./errors";

export const MAX_EMOJI_FILE_MIB = 5;

/** Zulip's name rule and wording: lowercase letters, digits, dashes, underscores; ends with a letter or digit. */
export function checkEmojiName(name: string) {
  if (!name) throw emojiNameMissing();
  if (/^[0-9a-z\-_]+$/.test(name)) {
    if (!/[0-9a-z]$/.test(name)) throw emojiNamesMustEndEither();
    return;
  }
  throw emojiNamesMustContainOnly();
}

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
