import { realmEmojiMap } from "../../domain/realm-emoji";
import { listRealmEmoji } from "../../store/realm-emoji";
import type { StateBuilder } from "./types";

/** `realm_emoji`: every custom emoji of the realm, deactivated ones included, keyed by id. */
export const realmEmojiState: StateBuilder = async ({ app, realm }) => ({ realm_emoji: realmEmojiMap(await listRealmEmoji(app.db, realm.id)) });
