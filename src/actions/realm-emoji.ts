import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { App } from "../context";
import type { RealmRow, RealmEmojiRow, UserRow } from "../db/schema";
import type { Tx } from "../db/tx";
import { imageType } from "../domain/avatars";
import {
  emojiExists,
  emojiMissing,
  insufficientPermission,
  mustUploadExactlyOneFile,
  notAnImage,
  notEmojiAuthor,
  uploadedFileLargerThanAllowed,
} from "../domain/errors";
import { checkEmojiName, MAX_EMOJI_FILE_MIB, realmEmojiMap, toApiRealmEmoji } from "../domain/realm-emoji";
import { isAdmin } from "../domain/roles";
import { toRealm } from "../events/types";
import { randomToken } from "../lib/random";
import { hasRealmPermission } from "../store/permissions";
import * as store from "../store/realm-emoji";

const EXTENSIONS: Record<string, string> = { "image/png": "png", "image/jpeg": "jpg", "image/gif": "gif", "image/webp": "webp" };
const emojiDir = (app: App, realmId: number) => join(app.config.dataDir, "emoji", String(realmId));

/**
 * One event serves both kinds of client: the whole set (Zulip's `update`) and the one change
 * (`add`/`edit`, for individual_emoji_changes); events/present.ts picks.
 */
async function emitChange(tx: Tx, realmId: number, op: "add" | "edit", row: RealmEmojiRow) {
  tx.emit(
    { type: "realm_emoji", op: "update", realm_emoji: realmEmojiMap(await store.listRealmEmoji(tx.db, realmId)), change: { op, emoji: toApiRealmEmoji(row) } },
    toRealm(realmId),
  );
}

export const listRealmEmoji = async (app: App, user: UserRow) => ({ emoji: realmEmojiMap(await store.listRealmEmoji(app.db, user.realmId)) });

/** POST /realm/emoji/{emoji_name}: one image of at most 5 MiB, by members of can_add_custom_emoji_group. */
export async function addRealmEmoji(app: App, realm: RealmRow, user: UserRow, name: string, files: File[]) {
  checkEmojiName(name);
  if (!(await hasRealmPermission(app.db, realm, user, "can_add_custom_emoji_group"))) throw insufficientPermission();
  if (await store.findActiveEmoji(app.db, realm.id, name)) throw emojiExists();
  if (files.length !== 1) throw mustUploadExactlyOneFile();
  const file = files[0]!;
  if (file.size > MAX_EMOJI_FILE_MIB * 1024 * 1024) throw uploadedFileLargerThanAllowed(MAX_EMOJI_FILE_MIB);
  const bytes = new Uint8Array(await file.arrayBuffer());
  const type = imageType(bytes);
  if (!type) throw notAnImage();
  // The file is written first (under a fresh name), so the transaction does no file I/O.
  const fileName = `${randomToken(16)}.${EXTENSIONS[type]}`;
  const path = join(emojiDir(app, realm.id), fileName);
  mkdirSync(emojiDir(app, realm.id), { recursive: true, mode: 0o700 });
  writeFileSync(path, bytes);
  try {
    await app.tx(async (tx) => {
      if (await store.findActiveEmoji(tx.db, realm.id, name)) throw emojiExists();
      await emitChange(tx, realm.id, "add", await store.insertRealmEmoji(tx.db, { realmId: realm.id, name, authorId: user.id, fileName }));
    });
  } catch (e) {
    rmSync(path, { force: true });
    throw e;
  }
  return {};
}

/** DELETE /realm/emoji/{emoji_name}: deactivates it (administrators, or the one who added it). */
export async function removeRealmEmoji(app: App, realm: RealmRow, user: UserRow, name: string) {
  const row = await store.findActiveEmoji(app.db, realm.id, name);
  if (!row) throw emojiMissing(name);
  if (!isAdmin(user.role) && row.authorId !== user.id) throw notEmojiAuthor();
  await app.tx(async (tx) => await emitChange(tx, realm.id, "edit", await store.updateRealmEmoji(tx.db, row.id, { deactivated: true })));
  return {};
}

/** An emoji image for the file route; null when there is none. */
export function readRealmEmoji(app: App, realmId: number, fileName: string): { bytes: Uint8Array; type: string } | null {
  if (!/^[A-Za-z0-9]+\.(png|jpg|gif|webp)$/.test(fileName)) return null;
  const path = join(emojiDir(app, realmId), fileName);
  if (!existsSync(path)) return null;
  const bytes = new Uint8Array(readFileSync(path));
  return { bytes, type: imageType(bytes) ?? "application/octet-stream" };
}

/** The renderer's lookup: an emoji of the realm by name (active ones first). */
export async function realmEmojiByName(app: App, realmId: number, name: string) {
  const row = await store.findActiveEmoji(app.db, realmId, name);
  return row ? toApiRealmEmoji(row) : null;
}
