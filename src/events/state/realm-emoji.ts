import { realmEmojiMap } from "../../domain/realm-emoji";
import { listRealmEmoji } from "../../store/realm-emoji";
import type { StateBuilder } from "./types";

/** `realm_emoji`: every custom emoji of the realm, deactivated ones included, keyed by id. */
export const realmEmojiState: StateBuilder = ({ app, realm }) => ({ realm_emoji: realmEmojiMap(listRealmEmoji(app.db, realm.id)) });
