// Channel folders: administrators create, rename, describe, archive and reorder them; channels name
// one in folder_id (actions/channels.ts checks it through activeChannelFolder).
import type { App } from "../context";
import type { ChannelFolderRow, RealmRow, UserRow } from "../db/schema";
import { checkChannelFolderName, MAX_CHANNEL_FOLDER_DESCRIPTION_LENGTH, MAX_CHANNEL_FOLDER_NAME_LENGTH, toApiChannelFolder } from "../domain/channel-folders";
import { cleanDescription } from "../domain/channels";
import { channelFolderNameInUse, channelFolderNotEmpty, invalidChannelFolderId, invalidOrderMapping, mustBeAdmin } from "../domain/errors";
import { isAdmin } from "../domain/roles";
import { toRealm } from "../events/types";
import * as store from "../store/channel-folders";
import { renderPlain } from "./render";
import { p, type Args } from "../domain/params";

/** A folder of the realm, or Zulip's `Invalid channel folder ID`. */
async function folderOf(app: App, realmId: number, id: number): Promise<ChannelFolderRow> {
  const f = await store.findChannelFolder(app.db, realmId, id);
  if (!f) throw invalidChannelFolderId();
  return f;
}

/** The folder a channel may be put in: one of the realm's that is not archived. */
export async function activeChannelFolder(app: App, realmId: number, id: number): Promise<ChannelFolderRow> {
  const f = await folderOf(app, realmId, id);
  if (f.isArchived) throw invalidChannelFolderId();
  return f;
}

/** A name no other folder of the realm that is not archived uses. */
async function checkNameFree(app: App, realmId: number, name: string, exceptId?: number) {
  const other = await store.findActiveChannelFolderByName(app.db, realmId, name);
  if (other && other.id !== exceptId) throw channelFolderNameInUse();
}

/** GET /channel_folders: in display order; archived ones only when asked for. */
export async function listChannelFolders(app: App, user: UserRow, includeArchived: boolean) {
  const folders = (await store.listChannelFolders(app.db, user.realmId)).filter((f) => includeArchived || !f.isArchived);
  return { channel_folders: folders.map(toApiChannelFolder) };
}

const name = () => p.str({ max: MAX_CHANNEL_FOLDER_NAME_LENGTH });
const description = () => p.str({ max: MAX_CHANNEL_FOLDER_DESCRIPTION_LENGTH });

export const createChannelFolderParams = { name: name(), description: description().optional("") };

/** POST /channel_folders/create: a new folder, placed after the others. */
export async function createChannelFolder(app: App, realm: RealmRow, admin: UserRow, a: Args<typeof createChannelFolderParams>) {
  if (!isAdmin(admin.role)) throw mustBeAdmin();
  const name = checkChannelFolderName(a.name);
  await checkNameFree(app, realm.id, name);
  const description = cleanDescription(a.description);
  return await app.tx(async (tx) => {
    const f = await store.insertChannelFolder(tx.db, {
      realmId: realm.id,
      name,
      description,
      renderedDescription: await renderPlain(app, realm, description),
      order: await store.nextChannelFolderOrder(tx.db, realm.id),
      creatorId: admin.id,
      dateCreated: app.now(),
    });
    tx.emit({ type: "channel_folder", op: "add", channel_folder: toApiChannelFolder(f) }, toRealm(realm.id));
    return { channel_folder_id: f.id };
  });
}

export const updateChannelFolderParams = {
  name: name().optional(),
  description: description().optional(),
  is_archived: p.bool().optional(),
};

/**
 * PATCH /channel_folders/{id}: name, description, archived or not. Each property that changes is one
 * channel_folder/update event, as Zulip sends them. A folder is archived only once no channel that is
 * not archived is in it; unarchiving needs its name to be free again.
 */
export async function updateChannelFolder(app: App, realm: RealmRow, admin: UserRow, id: number, a: Args<typeof updateChannelFolderParams>) {
  if (!isAdmin(admin.role)) throw mustBeAdmin();
  const f = await folderOf(app, realm.id, id);
  const name = a.name !== undefined ? checkChannelFolderName(a.name) : undefined;
  const description = a.description !== undefined ? cleanDescription(a.description) : undefined;
  const archived = a.is_archived ?? f.isArchived;
  if (name !== undefined && name !== f.name && !archived) await checkNameFree(app, realm.id, name, f.id);
  if (archived !== f.isArchived) {
    if (archived && (await store.folderHasActiveChannels(app.db, f.id))) throw channelFolderNotEmpty();
    if (!archived) await checkNameFree(app, realm.id, name ?? f.name, f.id);
  }
  await app.tx(async (tx) => {
    const emit = (data: Record<string, unknown>) => tx.emit({ type: "channel_folder", op: "update", channel_folder_id: f.id, data }, toRealm(realm.id));
    if (name !== undefined && name !== f.name) {
      await store.updateChannelFolder(tx.db, f.id, { name });
      emit({ name });
    }
    if (description !== undefined && description !== f.description) {
      const rendered = await renderPlain(app, realm, description);
      await store.updateChannelFolder(tx.db, f.id, { description, renderedDescription: rendered });
      emit({ description, rendered_description: rendered });
    }
    if (archived !== f.isArchived) {
      await store.updateChannelFolder(tx.db, f.id, { isArchived: archived });
      emit({ is_archived: archived });
    }
  });
  return {};
}

/** PATCH /channel_folders: the new order, naming every folder of the realm (archived ones too) exactly once. */
export async function reorderChannelFolders(app: App, admin: UserRow, order: number[]) {
  if (!isAdmin(admin.role)) throw mustBeAdmin();
  const current = await store.listChannelFolders(app.db, admin.realmId);
  const ids = new Set(order);
  if (order.length !== current.length || ids.size !== order.length || !current.every((f) => ids.has(f.id))) throw invalidOrderMapping();
  await app.tx(async (tx) => {
    for (const [i, id] of order.entries()) await store.updateChannelFolder(tx.db, id, { order: i });
    tx.emit({ type: "channel_folder", op: "reorder", order }, toRealm(admin.realmId));
  });
  return {};
}
