import { and, asc, eq, sql } from "drizzle-orm";
import type { Db } from "../db/client";
import { channelFolders, channels, type ChannelFolderRow } from "../db/schema";

/** The realm's folders in display order (archived ones too: the caller filters). */
export const listChannelFolders = (db: Db, realmId: number): ChannelFolderRow[] =>
  db.select().from(channelFolders).where(eq(channelFolders.realmId, realmId)).orderBy(asc(channelFolders.order), asc(channelFolders.id)).all();

export const findChannelFolder = (db: Db, realmId: number, id: number): ChannelFolderRow | undefined =>
  db
    .select()
    .from(channelFolders)
    .where(and(eq(channelFolders.realmId, realmId), eq(channelFolders.id, id)))
    .get();

/** A folder that is not archived with this name (compared ignoring ASCII case, like channel names). */
export const findActiveChannelFolderByName = (db: Db, realmId: number, name: string): ChannelFolderRow | undefined =>
  db
    .select()
    .from(channelFolders)
    .where(and(eq(channelFolders.realmId, realmId), eq(channelFolders.name, name), eq(channelFolders.isArchived, false)))
    .get();

/** The order a new folder gets: after every existing one. */
export const nextChannelFolderOrder = (db: Db, realmId: number): number =>
  db
    .select({ next: sql<number>`coalesce(max(${channelFolders.order}) + 1, 0)` })
    .from(channelFolders)
    .where(eq(channelFolders.realmId, realmId))
    .get()!.next;

export const insertChannelFolder = (db: Db, row: typeof channelFolders.$inferInsert): ChannelFolderRow =>
  db.insert(channelFolders).values(row).returning().get();

export const updateChannelFolder = (db: Db, id: number, patch: Partial<typeof channelFolders.$inferInsert>): ChannelFolderRow =>
  db.update(channelFolders).set(patch).where(eq(channelFolders.id, id)).returning().get()!;

/** Whether any channel that is not archived is in the folder. */
export const folderHasActiveChannels = (db: Db, folderId: number): boolean =>
  !!db
    .select({ id: channels.id })
    .from(channels)
    .where(and(eq(channels.folderId, folderId), eq(channels.isArchived, false)))
    .limit(1)
    .get();

/** Ids of the realm's folders holding at least one web-public channel that is not archived (what spectators see). */
export const webPublicFolderIds = (db: Db, realmId: number): Set<number> =>
  new Set(
    db
      .selectDistinct({ folderId: channels.folderId })
      .from(channels)
      .where(and(eq(channels.realmId, realmId), eq(channels.isWebPublic, true), eq(channels.isArchived, false)))
      .all()
      .flatMap((r) => (r.folderId === null ? [] : [r.folderId])),
  );
