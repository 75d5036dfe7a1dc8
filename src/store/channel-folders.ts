import { and, asc, eq, sql } from "drizzle-orm";
import type { Db } from "../db/client";
import { channelFolders, channels, type ChannelFolderRow } from "../db/schema";

/** The realm's folders in display order (archived ones too: the caller filters). */
export const listChannelFolders = async (db: Db, realmId: number): Promise<ChannelFolderRow[]> =>
  db.select().from(channelFolders).where(eq(channelFolders.realmId, realmId)).orderBy(asc(channelFolders.order), asc(channelFolders.id)).all();

export const findChannelFolder = async (db: Db, realmId: number, id: number): Promise<ChannelFolderRow | undefined> =>
  db
    .select()
    .from(channelFolders)
    .where(and(eq(channelFolders.realmId, realmId), eq(channelFolders.id, id)))
    .get();

/** A folder that is not archived with this name (compared ignoring ASCII case, like channel names). */
export const findActiveChannelFolderByName = async (db: Db, realmId: number, name: string): Promise<ChannelFolderRow | undefined> =>
  db
    .select()
    .from(channelFolders)
    .where(and(eq(channelFolders.realmId, realmId), eq(channelFolders.name, name), eq(channelFolders.isArchived, false)))
    .get();

/** The order a new folder gets: after every existing one. */
export const nextChannelFolderOrder = async (db: Db, realmId: number): Promise<number> =>
  db
    .select({ next: sql<number>`coalesce(max(${channelFolders.order}) + 1, 0)` })
    .from(channelFolders)
    .where(eq(channelFolders.realmId, realmId))
    .get()!.next;

export const insertChannelFolder = async (db: Db, row: typeof channelFolders.$inferInsert): Promise<ChannelFolderRow> =>
  db.insert(channelFolders).values(row).returning().get();

export const updateChannelFolder = async (db: Db, id: number, patch: Partial<typeof channelFolders.$inferInsert>): Promise<ChannelFolderRow> =>
  db.update(channelFolders).set(patch).where(eq(channelFolders.id, id)).returning().get()!;

/** Whether any channel that is not archived is in the folder. */
export const folderHasActiveChannels = async (db: Db, folderId: number): Promise<boolean> =>
  !!db
    .select({ id: channels.id })
    .from(channels)
    .where(and(eq(channels.folderId, folderId), eq(channels.isArchived, false)))
    .limit(1)
    .get();

/** Ids of the realm's folders holding at least one web-public channel that is not archived (what spectators see). */
export const webPublicFolderIds = async (db: Db, realmId: number): Promise<Set<number>> =>
  new Set(
    db
      .selectDistinct({ folderId: channels.folderId })
      .from(channels)
      .where(and(eq(channels.realmId, realmId), eq(channels.isWebPublic, true), eq(channels.isArchived, false)))
      .all()
      .flatMap((r) => (r.folderId === null ? [] : [r.folderId])),
  );
