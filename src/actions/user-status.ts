import type { App } from "../context";
import type { RealmRow, UserRow } from "../db/schema";
import {
  clientDidNotPassAny,
  clientMustPassEmojiName,
  emojiDoesNotExist,
  insufficientPermission,
  emojiCodeMismatch,
  statusTextTooLongLimit,
} from "../domain/errors";
import { isAdmin } from "../domain/roles";
import { MAX_STATUS_TEXT_LENGTH, toApiUserStatus } from "../domain/user-status";
import { toRealm } from "../events/types";
import { emojiByName } from "../render";
import { findUserStatus, saveUserStatus } from "../store/user-status";
import { userInRealm } from "./users";
import { p, type Args } from "../domain/params";

export const statusParams = {
  status_text: p.str().optional(),
  away: p.bool().optional(),
  emoji_name: p.str().optional(),
  emoji_code: p.str().optional(),
  reaction_type: p.str().optional(),
};
export type StatusChange = Args<typeof statusParams>;

/** POST /users/me/status (and, by administrators, /users/{user_id}/status): only what is passed changes. */
export async function updateStatus(app: App, realm: RealmRow, user: UserRow, a: StatusChange) {
  const text = a.status_text?.trim();
  if (a.away === undefined && text === undefined && a.emoji_name === undefined && a.emoji_code === undefined && a.reaction_type === undefined)
    throw clientDidNotPassAny();
  if (text !== undefined && [...text].length > MAX_STATUS_TEXT_LENGTH) throw statusTextTooLongLimit(MAX_STATUS_TEXT_LENGTH);
  if (a.emoji_name === undefined && (a.emoji_code !== undefined || a.reaction_type !== undefined)) throw clientMustPassEmojiName();
  let emoji: { emoji_name: string; emoji_code: string; reaction_type: string } | undefined;
  if (a.emoji_name === "") emoji = { emoji_name: "", emoji_code: "", reaction_type: "" };
  else if (a.emoji_name !== undefined) {
    const type = a.reaction_type ?? "unicode_emoji";
    if (type === "unicode_emoji") {
      const found = emojiByName(a.emoji_name);
      if (!found) throw emojiDoesNotExist(a.emoji_name);
      if (a.emoji_code !== undefined && a.emoji_code !== found.emoji_code) throw emojiCodeMismatch();
      emoji = { emoji_name: a.emoji_name, emoji_code: found.emoji_code, reaction_type: type };
    } else {
      if (!a.emoji_code) throw emojiCodeMismatch();
      emoji = { emoji_name: a.emoji_name, emoji_code: a.emoji_code, reaction_type: type };
    }
  }
  const old = await findUserStatus(app.db, user.id);
  await app.tx(async (tx) => {
    await saveUserStatus(tx.db, {
      userId: user.id,
      away: a.away ?? old?.away ?? false,
      statusText: text ?? old?.statusText ?? "",
      emojiName: emoji?.emoji_name ?? old?.emojiName ?? "",
      emojiCode: emoji?.emoji_code ?? old?.emojiCode ?? "",
      reactionType: emoji?.reaction_type ?? old?.reactionType ?? "",
      timestamp: app.now(),
    });
    const ev: Record<string, unknown> = { type: "user_status", user_id: user.id };
    if (a.away !== undefined) ev.away = a.away;
    if (text !== undefined) ev.status_text = text;
    if (emoji) Object.assign(ev, emoji);
    tx.emit(ev as never, toRealm(realm.id));
  });
  return {};
}

/** POST /users/{user_id}/status: administrators set another user's (e.g. a bot's) status. */
export async function updateStatusOf(app: App, realm: RealmRow, actor: UserRow, id: number, a: StatusChange) {
  const target = await userInRealm(app, actor, id);
  if (target.id !== actor.id && !isAdmin(actor.role)) throw insufficientPermission();
  return await updateStatus(app, realm, target, a);
}

/** GET /users/{user_id}/status. */
export const getStatus = async (app: App, viewer: UserRow, id: number) => ({
  status: toApiUserStatus(await findUserStatus(app.db, (await userInRealm(app, viewer, id)).id)),
});
