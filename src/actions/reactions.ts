// Emoji reactions: POST/DELETE /messages/{id}/reactions with Unicode, realm and Zulip's extra emoji.
import type { App } from "../context";
import type { RealmRow, UserRow } from "../db/schema";
import {
  emojiArgumentNeeded,
  emojiNotFound,
  invalidCustomEmoji,
  invalidEmojiCode,
  invalidEmojiName,
  invalidEmojiType,
  reactionExists,
  reactionMissing,
} from "../domain/errors";
import { FLAG } from "../domain/message-flags";
import { toUsers } from "../events/types";
import { emojiByCode, emojiByName } from "../render";
import { insertHistorical, messageRecipients } from "../store/message-flags";
import * as store from "../store/reactions";
import { findActiveEmoji } from "../store/realm-emoji";
import { catchUpChannels } from "./catch-up";
import { accessMessage } from "./message-fetch";
import { p, type Args } from "../domain/params";

/** Zulip's one extra emoji, its own logo. */
const ZULIP_EXTRA = "zulip";
const REACTION_TYPES = ["unicode_emoji", "realm_emoji", "zulip_extra_emoji"];

interface Emoji {
  name: string;
  code: string;
  type: string;
}

/**
 * The emoji a request names: by name alone (the type inferred; the realm's custom emoji first), or
 * by code and type, checked against each other.
 */
async function resolveEmoji(app: App, realm: RealmRow, name: string | undefined, code: string | undefined, type: string | undefined): Promise<Emoji> {
  if (type !== undefined && !REACTION_TYPES.includes(type)) throw invalidEmojiType();
  const custom = name !== undefined ? await findActiveEmoji(app.db, realm.id, name) : undefined;
  if (type === "realm_emoji" || (type === undefined && code === undefined && custom)) {
    if (!custom || (code !== undefined && code !== String(custom.id))) throw invalidCustomEmoji();
    return { name: custom.name, code: String(custom.id), type: "realm_emoji" };
  }
  if (code === undefined) {
    if (name === undefined) throw emojiArgumentNeeded();
    if (name === ZULIP_EXTRA && (type === undefined || type === "zulip_extra_emoji")) return { name, code: ZULIP_EXTRA, type: "zulip_extra_emoji" };
    const u = emojiByName(name);
    if (!u || (type !== undefined && type !== "unicode_emoji")) throw emojiNotFound(name);
    return { name, code: u.emoji_code, type: "unicode_emoji" };
  }
  const t = type ?? (code === ZULIP_EXTRA ? "zulip_extra_emoji" : "unicode_emoji");
  if (t === "zulip_extra_emoji") {
    if (code !== ZULIP_EXTRA) throw invalidEmojiCode();
    if (name !== undefined && name !== ZULIP_EXTRA) throw invalidEmojiName();
    return { name: ZULIP_EXTRA, code, type: t };
  }
  const u = emojiByCode(code);
  if (!u) throw invalidEmojiCode();
  // As in Zulip, a name sent with the code must be one of that emoji's names (canonical or alias).
  if (name !== undefined && emojiByName(name)?.emoji_code !== u.emoji_code) throw invalidEmojiName();
  return { name: name ?? u.emoji_name, code: u.emoji_code, type: t };
}

async function emitReaction(
  app: App,
  tx: Parameters<Parameters<App["tx"]>[0]>[0],
  realm: RealmRow,
  user: UserRow,
  messageId: number,
  e: Emoji,
  op: "add" | "remove",
  isPublic: boolean,
) {
  const audience = (await messageRecipients(tx.db, messageId)).map((r) => r.userId);
  tx.emit(
    {
      type: "reaction",
      op,
      message_id: messageId,
      emoji_name: e.name,
      emoji_code: e.code,
      reaction_type: e.type,
      user_id: user.id,
      user: { user_id: user.id, email: user.email, full_name: user.fullName, is_mirror_dummy: false },
    },
    toUsers(audience, isPublic ? { publicStreamOf: realm.id } : {}),
  );
}

export const addReactionParams = {
  emoji_name: p.str(),
  emoji_code: p.str().optional(),
  reaction_type: p.str().optional(),
};

/** POST /messages/{message_id}/reactions. */
export async function addReaction(app: App, realm: RealmRow, user: UserRow, id: number, a: Args<typeof addReactionParams>) {
  const access = await accessMessage(app, realm, user, id);
  const e = await resolveEmoji(app, realm, a.emoji_name, a.emoji_code, a.reaction_type);
  if (await store.findReaction(app.db, id, user.id, e.type, e.code)) throw reactionExists();
  if (access.channel) await catchUpChannels(app, [access.channel.id]); // the event's audience, read outside the writer
  await app.tx(async (tx) => {
    // Reacting to a message read from a channel's history gives the reader a row of their own.
    if (access.flags === undefined) await insertHistorical(tx.db, user.id, [id], FLAG.read);
    await store.insertReaction(tx.db, { messageId: id, userId: user.id, emojiName: e.name, emojiCode: e.code, reactionType: e.type });
    await emitReaction(app, tx, realm, user, id, e, "add", !!access.channel && !access.channel.inviteOnly);
  });
  return {};
}

export const removeReactionParams = {
  emoji_name: p.str().optional(),
  emoji_code: p.str().optional(),
  reaction_type: p.str().optional(),
};

/** DELETE /messages/{message_id}/reactions. */
export async function removeReaction(app: App, realm: RealmRow, user: UserRow, id: number, a: Args<typeof removeReactionParams>) {
  const access = await accessMessage(app, realm, user, id);
  if (a.emoji_name === undefined && a.emoji_code === undefined) throw emojiArgumentNeeded();
  const row =
    a.emoji_code !== undefined
      ? await store.findReaction(app.db, id, user.id, a.reaction_type ?? (a.emoji_code === ZULIP_EXTRA ? "zulip_extra_emoji" : "unicode_emoji"), a.emoji_code)
      : await store.findReactionByName(app.db, id, user.id, a.emoji_name!);
  if (!row) throw reactionMissing();
  if (access.channel) await catchUpChannels(app, [access.channel.id]);
  await app.tx(async (tx) => {
    await store.deleteReaction(tx.db, row.id);
    await emitReaction(
      app,
      tx,
      realm,
      user,
      id,
      { name: row.emojiName, code: row.emojiCode, type: row.reactionType },
      "remove",
      !!access.channel && !access.channel.inviteOnly,
    );
  });
  return {};
}
