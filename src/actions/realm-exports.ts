// Data exports: Zulip's export format written from a realm, by `confab export` at once or, for
// POST /export/realm, in the background with realm_export events to the administrators.
import { existsSync } from "node:fs";
import { copyFile, mkdir, mkdtemp, rename, rm, writeFile } from "node:fs/promises";
import { basename, dirname, join } from "node:path";
import type { App } from "../context";
import type { RealmExportRow, RealmRow, UserRow } from "../db/schema";
import { mustBeAdmin } from "../domain/errors";
import type { Archive } from "../domain/realm-archive";
import { realmUrl } from "../domain/realms";
import { isAdmin } from "../domain/roles";
import { userSetting } from "../domain/user-settings";
import { messagesFileName, toZulipExport } from "../domain/zulip-export";
import { toUsers } from "../events/types";
import { randomToken } from "../lib/random";
import { uploadFilePath } from "./attachments";
import { catchUpChannels } from "./catch-up";
import * as store from "../store/realm-exports";
import { listAdminIds, listUsers } from "../store/users";
import { findRealmById } from "../store/realms";
import { detached } from "../lib/detached";

/** Zulip's export_type: 1 public data only, 2 also the private data of users who consented. */
export const EXPORT_PUBLIC = 1;
export const EXPORT_STANDARD = 2;
/** What an archive holds: everything (the server's operator), or what an administrator may take. */
export type ExportScope = "full" | typeof EXPORT_PUBLIC | typeof EXPORT_STANDARD;

const exportsDir = (app: App) => join(app.config.dataDir, "exports");

/**
 * The realm's history. Channel messages are first delivered to every subscriber's rows (see
 * store/lazy-delivery.ts), so the export carries each user's read and starred state.
 */
export async function realmArchive(app: App, realm: RealmRow, scope: ExportScope): Promise<Archive> {
  const channels = await store.archiveChannels(app.db, realm.id);
  await catchUpChannels(
    app,
    channels.map((c) => c.id),
  );
  const users = await store.archiveUsers(app.db, realm.id);
  let messages = await store.archiveMessages(app.db, realm.id);
  let kept = channels;
  if (scope !== "full") {
    // Public: public channels only, without anyone's read state. Standard: also private channels and
    // direct messages sent by users who allowed their private data to be exported.
    const consented = new Set((await listUsers(app.db, realm.id)).filter((u) => userSetting(u, "allow_private_data_export") === true).map((u) => u.id));
    const isPublic = new Set(channels.filter((c) => !c.inviteOnly).map((c) => c.id));
    const privateOk = (senderId: number) => scope === EXPORT_STANDARD && consented.has(senderId);
    messages = messages
      .filter((m) => (m.channelId !== null && isPublic.has(m.channelId)) || privateOk(m.senderId))
      .map((m) => ({ ...m, flags: scope === EXPORT_STANDARD ? (m.flags ?? []).filter(([u]) => consented.has(u)) : [] }));
    const withMessages = new Set(messages.map((m) => m.channelId));
    kept = channels.filter((c) => isPublic.has(c.id) || (scope === EXPORT_STANDARD && withMessages.has(c.id)));
  }
  const ids = new Set(messages.map((m) => m.id));
  // A file goes with the exported messages that link it (all of them, in a full export).
  const files = (await store.archiveFiles(app.db, realm.id))
    .map((f) => (scope === "full" ? f : { ...f, messageIds: f.messageIds.filter((id) => ids.has(id)) }))
    .filter((f) => scope === "full" || f.messageIds.length);
  return {
    realm: { name: realm.name, stringId: realm.stringId, description: realm.description, dateCreated: realm.dateCreated },
    users,
    channels: kept,
    messages,
    reactions: (await store.archiveReactions(app.db, realm.id)).filter((r) => ids.has(r.messageId)),
    files,
  };
}

/** Writes the archive as a Zulip export directory (realm.json, messages-NNNNNN.json, attachment.json, uploads/). */
export async function writeZulipExport(app: App, archive: Archive, realmId: number, dir: string) {
  const files = toZulipExport(archive, realmId);
  await mkdir(join(dir, "uploads"), { recursive: true });
  const json = (name: string, data: unknown) => writeFile(join(dir, name), JSON.stringify(data, null, 1));
  await json("realm.json", files.realm);
  for (const [i, chunk] of files.messages.entries()) await json(messagesFileName(i + 1), chunk);
  await json("attachment.json", files.attachment);
  await json("uploads/records.json", files.records);
  // Each upload at uploads/<path_id>, as Zulip lays them out.
  for (const f of archive.files) {
    const from = uploadFilePath(app, f.source);
    if (!existsSync(from)) continue; // removed from disk by hand: the record stays, as Zulip's would
    const to = join(dir, "uploads", ...f.source.split("/"));
    await mkdir(dirname(to), { recursive: true });
    await copyFile(from, to);
  }
}

/** Writes a realm's export to `output`: a directory, or a .tar.gz holding one (Zulip's own packaging). */
export async function exportRealmTo(app: App, realm: RealmRow, output: string, scope: ExportScope = "full"): Promise<Archive> {
  if (existsSync(output)) throw new Error(`${output} already exists`);
  const archive = await realmArchive(app, realm, scope);
  if (!/\.(tar\.gz|tgz)$/.test(output)) {
    await writeZulipExport(app, archive, realm.id, output);
    return archive;
  }
  await mkdir(dirname(output), { recursive: true });
  const work = await mkdtemp(join(dirname(output), ".export-"));
  try {
    const name = basename(output).replace(/\.(tar\.gz|tgz)$/, "");
    await writeZulipExport(app, archive, realm.id, join(work, name));
    const tar = await import("tar"); // loaded on use: every CLI command would pay for it at start
    await tar.c({ gzip: true, cwd: work, file: join(work, "out.tar.gz"), portable: true }, [name]);
    await rename(join(work, "out.tar.gz"), output);
  } finally {
    await rm(work, { recursive: true, force: true });
  }
  return archive;
}

// ---- POST/GET /export/realm ----

function checkAdmin(user: UserRow) {
  if (!isAdmin(user.role)) throw mustBeAdmin();
}

export const exportUrl = (app: App, realm: RealmRow, path: string) => `${realmUrl(app.config.externalUrl, realm.stringId)}/user_avatars/exports/${path}`;

function toApiRealmExport(app: App, realm: RealmRow, r: RealmExportRow) {
  return {
    id: r.id,
    export_time: r.dateRequested,
    acting_user_id: r.actingUserId ?? 0,
    export_url: r.dateSucceeded !== null && r.dateDeleted === null && r.path ? exportUrl(app, realm, r.path) : null,
    deleted_timestamp: r.dateDeleted,
    failed_timestamp: r.dateFailed,
    pending: r.dateSucceeded === null && r.dateFailed === null && r.dateDeleted === null,
    export_type: r.exportType,
  };
}

/** The realm_export event: the whole list, to every administrator, as Zulip sends it. */
async function emitExports(app: App, realm: RealmRow) {
  const exports = (await store.listRealmExports(app.db, realm.id)).map((r) => toApiRealmExport(app, realm, r));
  return { event: { type: "realm_export", exports }, audience: toUsers(await listAdminIds(app.db, realm.id)) };
}

export async function listRealmExports(app: App, realm: RealmRow, user: UserRow) {
  checkAdmin(user);
  return { exports: (await store.listRealmExports(app.db, realm.id)).map((r) => toApiRealmExport(app, realm, r)) };
}

export async function listExportConsents(app: App, realm: RealmRow, user: UserRow) {
  checkAdmin(user);
  return {
    export_consents: (await listUsers(app.db, realm.id))
      .filter((u) => u.isActive && !u.isBot)
      .map((u) => ({ user_id: u.id, consented: userSetting(u, "allow_private_data_export") === true })),
  };
}

/** POST /export/realm: records the request, answers at once, and writes the archive on a later turn. */
export async function requestRealmExport(app: App, realm: RealmRow, user: UserRow, exportType: number): Promise<{ id: number }> {
  checkAdmin(user);
  const row = await app.tx(async (tx) => {
    const r = await store.insertRealmExport(tx.db, { realmId: realm.id, actingUserId: user.id, exportType, dateRequested: Date.now() / 1000 });
    const e = await emitExports(app, realm);
    tx.emit(e.event, e.audience);
    return r;
  });
  setTimeout(
    detached(app.log, "realm export failed", () => runRealmExport(app, row)),
    0,
  );
  return { id: row.id };
}

async function runRealmExport(app: App, row: RealmExportRow) {
  const realm = (await findRealmById(app.db, row.realmId))!;
  const path = `${realm.id}/${randomToken(24)}/zulip-export-${randomToken(8).toLowerCase()}.tar.gz`;
  let patch: Partial<RealmExportRow>;
  try {
    await exportRealmTo(app, realm, join(exportsDir(app), path), row.exportType as ExportScope);
    patch = { dateSucceeded: Date.now() / 1000, path };
  } catch (e) {
    app.log.error("realm export failed", { realm: realm.id, export: row.id, error: String((e as Error)?.stack ?? e) });
    patch = { dateFailed: Date.now() / 1000 };
  }
  try {
    await app.tx(async (tx) => {
      await store.updateRealmExport(tx.db, row.id, patch);
      const e = await emitExports(app, realm);
      tx.emit(e.event, e.audience);
    });
  } catch {
    // The server stopped meanwhile: the next start marks the export failed.
  }
}

/** At start: exports cut short by a stop will never finish, so they are failed (and announced as such). */
export async function failInterruptedExports(app: App) {
  const pending = await store.listPendingExports(app.db);
  if (!pending.length) return;
  await app.tx(async (tx) => {
    for (const r of pending) await store.updateRealmExport(tx.db, r.id, { dateFailed: Date.now() / 1000 });
  });
}

/** The archive at an export URL, for an administrator of its realm; null for anything else. */
export async function readExportFile(app: App, realm: RealmRow, user: UserRow, path: string): Promise<string | null> {
  checkAdmin(user);
  const row = (await store.listRealmExports(app.db, realm.id)).find((r) => r.path === path && r.dateDeleted === null);
  if (!row) return null;
  const file = join(exportsDir(app), path);
  return existsSync(file) ? file : null;
}
