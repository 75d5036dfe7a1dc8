import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { App } from "../context";
import type { RealmRow, UserRow } from "../db/schema";
import { imageType, MAX_AVATAR_MIB } from "../domain/avatars";
import { realmSetting } from "../domain/realm-settings";
import { isAdmin } from "../domain/roles";
import { avatarUrl } from "../domain/users";
import { toRealm } from "../events/types";
import { updateUser } from "../store/users";
import { avatarChangesDisabled, avatarTooLarge, notAnImage, oneAvatar } from "../domain/errors";

/** Where a user's uploaded avatar lives, under the data directory. */
const avatarFile = (app: App, realmId: number, userId: number) => join(app.config.dataDir, "avatars", String(realmId), String(userId));

function checkMayChange(realm: RealmRow, user: UserRow) {
  if (realmSetting(realm, "avatar_changes_disabled") === true && !isAdmin(user.role)) throw avatarChangesDisabled();
}

/** Every client hears of the new picture (realm_user update in Zulip's avatar shape). */
async function setAvatar(app: App, realm: RealmRow, user: UserRow, source: "G" | "U") {
  return await app.tx(async (tx) => {
    const row = await updateUser(tx.db, user.id, { avatarSource: source, avatarVersion: user.avatarVersion + 1 });
    const url = avatarUrl(row, app.config.externalUrl);
    tx.emit(
      {
        type: "realm_user",
        op: "update",
        person: { user_id: row.id, avatar_source: source, avatar_url: url, avatar_url_medium: url, avatar_version: row.avatarVersion },
      },
      toRealm(realm.id),
    );
    return { avatar_url: url };
  });
}

/** POST /users/me/avatar: exactly one image (PNG, JPEG, GIF or WebP) of at most 5 MiB. */
export async function uploadAvatar(app: App, realm: RealmRow, user: UserRow, files: File[]) {
  checkMayChange(realm, user);
  if (files.length !== 1) throw oneAvatar();
  const file = files[0]!;
  if (file.size > MAX_AVATAR_MIB * 1024 * 1024) throw avatarTooLarge(MAX_AVATAR_MIB);
  const bytes = new Uint8Array(await file.arrayBuffer());
  if (!imageType(bytes)) throw notAnImage();
  const path = avatarFile(app, realm.id, user.id);
  mkdirSync(join(path, ".."), { recursive: true, mode: 0o700 });
  writeFileSync(path, bytes);
  return await setAvatar(app, realm, user, "U");
}

/** DELETE /users/me/avatar: back to the default (gravatar); with no upload it changes nothing (level 443). */
export async function deleteAvatar(app: App, realm: RealmRow, user: UserRow) {
  checkMayChange(realm, user);
  if (user.avatarSource !== "U") return { avatar_url: avatarUrl(user, app.config.externalUrl) };
  rmSync(avatarFile(app, realm.id, user.id), { force: true });
  return await setAvatar(app, realm, user, "G");
}

/** An uploaded avatar's bytes and type, for the file route; null when there is none. */
export function readAvatar(app: App, realmId: number, userId: number): { bytes: Uint8Array; type: string } | null {
  const path = avatarFile(app, realmId, userId);
  if (!existsSync(path)) return null;
  const bytes = new Uint8Array(readFileSync(path));
  return { bytes, type: imageType(bytes) ?? "application/octet-stream" };
}
