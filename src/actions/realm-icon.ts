// The organization icon (Zulip's POST and DELETE /realm/icon): administrators upload one image, kept
// under the data directory beside the avatars, or go back to the default.
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { App } from "../context";
import type { RealmRow, UserRow } from "../db/schema";
import { imageType, MAX_AVATAR_MIB } from "../domain/avatars";
import { avatarTooLarge, mustBeAdmin, notAnImage, oneIcon } from "../domain/errors";
import { realmIconUrl } from "../domain/realms";
import { isAdmin } from "../domain/roles";
import { toRealm } from "../events/types";
import { updateRealm } from "../store/realms";

const iconFile = (app: App, realmId: number) => join(app.config.dataDir, "avatars", String(realmId), "realm-icon");

/** Every client hears of the new icon (realm update_dict, property "icon"). */
async function setIcon(app: App, realm: RealmRow, source: "G" | "U") {
  return await app.tx(async (tx) => {
    const next = { iconSource: source, iconVersion: realm.iconVersion + 1 };
    await updateRealm(tx.db, realm.id, next);
    const icon_url = realmIconUrl({ ...realm, ...next }, app.config.externalUrl);
    tx.emit({ type: "realm", op: "update_dict", property: "icon", data: { icon_url, icon_source: source } }, toRealm(realm.id));
    return { icon_url };
  });
}

/** POST /realm/icon: exactly one image (PNG, JPEG, GIF or WebP) of at most 5 MiB. */
export async function uploadRealmIcon(app: App, realm: RealmRow, user: UserRow, files: File[]) {
  if (!isAdmin(user.role)) throw mustBeAdmin();
  if (files.length !== 1) throw oneIcon();
  const file = files[0]!;
  if (file.size > MAX_AVATAR_MIB * 1024 * 1024) throw avatarTooLarge(MAX_AVATAR_MIB);
  const bytes = new Uint8Array(await file.arrayBuffer());
  if (!imageType(bytes)) throw notAnImage();
  const path = iconFile(app, realm.id);
  mkdirSync(join(path, ".."), { recursive: true, mode: 0o700 });
  writeFileSync(path, bytes);
  return await setIcon(app, realm, "U");
}

/** DELETE /realm/icon: back to the default; with no upload it changes nothing. */
export async function deleteRealmIcon(app: App, realm: RealmRow, user: UserRow) {
  if (!isAdmin(user.role)) throw mustBeAdmin();
  if (realm.iconSource !== "U") return { icon_url: realmIconUrl(realm, app.config.externalUrl) };
  rmSync(iconFile(app, realm.id), { force: true });
  return await setIcon(app, realm, "G");
}

/** An uploaded icon's bytes and type, for the file route; null when there is none. */
export function readRealmIcon(app: App, realmId: number): { bytes: Uint8Array; type: string } | null {
  const path = iconFile(app, realmId);
  if (!existsSync(path)) return null;
  const bytes = new Uint8Array(readFileSync(path));
  return { bytes, type: imageType(bytes) ?? "application/octet-stream" };
}
