// Uploaded files (POST /user_uploads) and the attachments they become: who may read them, which
// messages link them (kept on send, edit and delete), temporary URLs, and cleanup of files no message
// links. The bytes live under <data dir>/uploads/<path_id>; the store keeps the metadata.
import { existsSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import type { App } from "../context";
import type { AttachmentRow, RealmRow, UserRow } from "../db/schema";
import type { Tx } from "../db/tx";
import { realmSetting } from "../domain/realm-settings";
import { safeFileName, toApiAttachment, uploadContentType, uploadUrl } from "../domain/uploads";
import { toUsers } from "../events/types";
import { randomBytes, randomToken, safeEqual } from "../lib/random";
import * as store from "../store/attachments";
import { accessMessage } from "./message-fetch";
import { fileTooLarge, invalidAttachment, noFile, oneFileOnly, quotaExceeded, uploadForbidden, uploadNotFound } from "../domain/errors";
import { filterInOrder } from "../lib/in-order";

const MIB = 1024 * 1024;
const DAY = 86400;
/** How long a temporary URL (GET /user_uploads/{realm_id_str}/{filename}) works: Zulip's 60 s. */
const TEMPORARY_URL_SECONDS = 60;
/** At most this many expired uploads are deleted per transaction. */
const CLEANUP_BATCH = 500;

export const uploadsDir = (app: App) => join(app.config.dataDir, "uploads");
export const uploadFilePath = (app: App, pathId: string) => join(uploadsDir(app), ...pathId.split("/"));

const spaceUsed = async (app: App, realmId: number) => await store.realmUploadBytes(app.db, realmId);

/** One attachment as the API shows it (with the messages linking it). */
async function apiAttachment(db: App["db"], a: AttachmentRow) {
  return toApiAttachment(a, (await store.linkedMessages(db, [a.id])).get(a.id) ?? []);
}

async function emitAttachment(tx: Tx, a: AttachmentRow, op: "add" | "update") {
  tx.emit(
    { type: "attachment", op, attachment: await apiAttachment(tx.db, a), upload_space_used: await store.realmUploadBytes(tx.db, a.realmId) },
    toUsers([a.ownerId]),
  );
}

// ---- Upload, list, delete ----

/** POST /user_uploads: one file within max_file_upload_size_mib and the realm's upload quota. */
export async function uploadFile(app: App, realm: RealmRow, user: UserRow, files: File[]) {
  if (!files.length) throw noFile();
  if (files.length > 1) throw oneFileOnly();
  const file = files[0]!;
  const maxMib = app.config.limits.maxFileUploadMib;
  if (file.size > maxMib * MIB) throw fileTooLarge(maxMib);
  await checkQuota(app, realm, file.size);
  const name = file.name || "uploaded-file";
  const pathId = `${realm.id}/${randomToken(24)}/${safeFileName(name)}`;
  const path = uploadFilePath(app, pathId);
  // The bytes are written first, outside the transaction; a failed transaction removes them again.
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  writeFileSync(path, new Uint8Array(await file.arrayBuffer()), { mode: 0o600 });
  try {
    await app.tx(async (tx) => {
      await checkQuota(app, realm, file.size, tx);
      const now = app.now();
      const row = await store.insertAttachment(tx.db, {
        realmId: realm.id,
        ownerId: user.id,
        pathId,
        name,
        contentType: uploadContentType(file.type, name),
        size: file.size,
        createTime: now,
        unreferencedSince: now,
      });
      await emitAttachment(tx, row, "add");
    });
  } catch (e) {
    removeFile(app, pathId);
    throw e;
  }
  const url = uploadUrl(pathId);
  return { uri: url, url, filename: name };
}

async function checkQuota(app: App, realm: RealmRow, size: number, tx?: Tx) {
  const quotaMib = realmSetting(realm, "upload_quota_mib") as number | null;
  if (quotaMib !== null && (await store.realmUploadBytes(tx?.db ?? app.db, realm.id)) + size > quotaMib * MIB) throw quotaExceeded();
}

/** GET /attachments: the caller's uploads and the organization's usage. */
export async function listAttachments(app: App, user: UserRow) {
  const rows = await store.listOwnAttachments(app.db, user.id);
  const linked = await store.linkedMessages(
    app.db,
    rows.map((r) => r.id),
  );
  return { attachments: rows.map((r) => toApiAttachment(r, linked.get(r.id) ?? [])), upload_space_used: await spaceUsed(app, user.realmId) };
}

/** DELETE /attachments/{attachment_id}: only its uploader; messages keep their (now dead) links, as in Zulip. */
export async function removeAttachment(app: App, user: UserRow, id: number) {
  const row = await store.findAttachment(app.db, id);
  if (!row || row.ownerId !== user.id) throw invalidAttachment();
  await app.tx(async (tx) => {
    await store.deleteAttachments(tx.db, [row.id]);
    tx.emit(
      { type: "attachment", op: "remove", attachment: { id: row.id }, upload_space_used: await store.realmUploadBytes(tx.db, row.realmId) },
      toUsers([row.ownerId]),
    );
  });
  removeFile(app, row.pathId);
  return {};
}

function removeFile(app: App, pathId: string) {
  const path = uploadFilePath(app, pathId);
  rmSync(path, { force: true });
  rmSync(dirname(path), { recursive: true, force: true }); // the random directory holds only this file
}

// ---- Access ----

/**
 * Zulip's rule: the uploader, or anyone who can read a message that links the file (spectators: a
 * web-public one). null: no such file in this realm (404); false: not allowed (403).
 */
async function mayRead(app: App, realm: RealmRow, viewer: UserRow | null, a: AttachmentRow): Promise<boolean> {
  if (viewer && viewer.id === a.ownerId) return true;
  for (const id of await store.linkingMessageIds(app.db, a.id)) {
    try {
      await accessMessage(app, realm, viewer, id);
      return true;
    } catch {
      // not this message; try the next
    }
  }
  return false;
}

export type UploadAccess = { ok: true; attachment: AttachmentRow; path: string } | { ok: false; status: 403 | 404 };

/** The file at /user_uploads/<path_id> if the viewer may read it. */
export async function accessUpload(app: App, realm: RealmRow, viewer: UserRow | null, pathId: string): Promise<UploadAccess> {
  // No stored path holds a NUL (a URL's %00), and PostgreSQL refuses one in a query's text: not found.
  if (pathId.includes("\0")) return { ok: false, status: 404 };
  const a = await store.findAttachmentByPath(app.db, pathId);
  const path = a ? uploadFilePath(app, a.pathId) : "";
  if (!a || a.realmId !== realm.id || !existsSync(path)) return { ok: false, status: 404 };
  if (!(await mayRead(app, realm, viewer, a))) return { ok: false, status: 403 };
  return { ok: true, attachment: a, path };
}

// Temporary URLs are signed, not stored: HMAC over the path id and expiry with a per-process key
// (a restart invalidates the ones outstanding, which live a minute anyway).
const TOKEN_KEY = randomBytes(32);
const sign = (payload: string) => new Bun.CryptoHasher("sha256", TOKEN_KEY).update(payload).digest("base64url");

/** GET /api/v1/user_uploads/{realm_id_str}/{filename}: a URL that serves the file without credentials for a minute. */
export async function temporaryUploadUrl(app: App, realm: RealmRow, user: UserRow, realmIdStr: string, filename: string) {
  const access = await accessUpload(app, realm, user, `${realmIdStr}/${filename}`);
  if (!access.ok) throw access.status === 404 ? uploadNotFound() : uploadForbidden();
  const payload = Buffer.from(`${access.attachment.pathId}\n${app.now() + TEMPORARY_URL_SECONDS}`).toString("base64url");
  return { url: `/user_uploads/temporary/${payload}.${sign(payload)}/${encodeURIComponent(filename.split("/").pop()!)}` };
}

/** The upload a temporary URL names, or null when the token is forged, expired or for another file. */
export async function uploadFromToken(app: App, token: string, filename: string): Promise<AttachmentRow | null> {
  const [payload, mac] = token.split(".");
  if (!payload || !mac || !safeEqual(mac, sign(payload))) return null;
  const [pathId, expires] = Buffer.from(payload, "base64url").toString().split("\n");
  if (!pathId || Number(expires) < app.now() || pathId.split("/").pop() !== filename) return null;
  return (await store.findAttachmentByPath(app.db, pathId)) ?? null;
}

// ---- Links from messages ----

/**
 * Links a message to the uploads its content points at: the sender's own, and others' the sender can
 * already read (so a link cannot widen access to a file one could not see). Each owner hears an update.
 */
export async function claimAttachmentsTx(app: App, tx: Tx, realm: RealmRow, sender: UserRow, messageId: number, pathIds: string[]) {
  const rows = await filterInOrder(await store.findAttachmentsByPaths(tx.db, realm.id, pathIds), async (a) => await mayRead(app, realm, sender, a));
  await store.linkAttachments(
    tx.db,
    messageId,
    rows.map((a) => a.id),
  );
  for (const a of rows) await emitAttachment(tx, a, "update");
}

/**
 * After an edit: the message links exactly the uploads its new content points at. Returns the editor's
 * uploads that no message links any more (PATCH /messages' detached_uploads).
 */
export async function relinkAttachmentsTx(app: App, tx: Tx, realm: RealmRow, editor: UserRow, messageId: number, pathIds: string[]) {
  const before = new Set(await store.messageAttachmentIds(tx.db, [messageId]));
  const wanted = await store.findAttachmentsByPaths(tx.db, realm.id, pathIds);
  const removed = [...before].filter((id) => !wanted.some((a) => a.id === id));
  await store.unlinkAttachments(tx.db, [messageId], removed);
  await claimAttachmentsTx(
    app,
    tx,
    realm,
    editor,
    messageId,
    wanted.filter((a) => !before.has(a.id)).map((a) => a.pathId),
  );
  const orphans = new Set(await store.markUnreferenced(tx.db, removed, app.now()));
  const detached = [];
  for (const id of removed) {
    const a = (await store.findAttachment(tx.db, id))!;
    await emitAttachment(tx, a, "update");
    if (orphans.has(id) && a.ownerId === editor.id) detached.push(await apiAttachment(tx.db, a));
  }
  return detached;
}

/** Before messages are deleted: unlink their uploads; ones left unlinked start their grace period. */
export async function detachMessagesTx(app: App, tx: Tx, messageIds: number[]) {
  const ids = await store.messageAttachmentIds(tx.db, messageIds);
  if (!ids.length) return;
  await store.unlinkAttachments(tx.db, messageIds);
  await store.markUnreferenced(tx.db, ids, app.now());
  for (const id of ids) await emitAttachment(tx, (await store.findAttachment(tx.db, id))!, "update");
}

// ---- Cleanup ----

/** Housekeeping: uploads no message has linked for uploads.unreferenced_grace_days go, with their files. */
export async function deleteUnreferencedUploads(app: App, now = app.now()): Promise<number> {
  const cutoff = now - app.config.uploads.unreferencedGraceDays * DAY;
  let deleted = 0;
  for (;;) {
    const rows = await store.listExpiredAttachments(app.db, cutoff, CLEANUP_BATCH);
    if (!rows.length) break;
    await app.tx(async (tx) => {
      await store.deleteAttachments(
        tx.db,
        rows.map((r) => r.id),
      );
      for (const r of rows)
        tx.emit(
          { type: "attachment", op: "remove", attachment: { id: r.id }, upload_space_used: await store.realmUploadBytes(tx.db, r.realmId) },
          toUsers([r.ownerId]),
        );
    });
    for (const r of rows) removeFile(app, r.pathId);
    deleted += rows.length;
    if (rows.length < CLEANUP_BATCH) break;
  }
  if (deleted) app.log.info("unreferenced uploads deleted", { deleted });
  return deleted;
}
