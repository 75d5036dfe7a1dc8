import { and, asc, eq, sql } from "drizzle-orm";
import type { Db } from "../db/client";
import { type channelFolders, type ChannelFolderRow } from "../db/schema";
import { tables } from "../db/engine";
import { first, all } from "../db/query";

/** The realm's folders in display order (archived ones too: the caller filters). */
export const listChannelFolders = async (db: Db, realmId: number): Promise<ChannelFolderRow[]> => {
  const { channelFolders } = tables(db);
  return all(db.select().from(channelFolders).where(eq(channelFolders.realmId, realmId)).orderBy(asc(channelFolders.order), asc(channelFolders.id)));
};

export const findChannelFolder = async (db: Db, realmId: number, id: number): Promise<ChannelFolderRow | undefined> => {
  const { channelFolders } = tables(db);
  return first(
    db
      .select()
      .from(channelFolders)
      .where(and(eq(channelFolders.realmId, realmId), eq(channelFolders.id, id))),
  );
};

/** A folder that is not archived with this name (compared ignoring ASCII case, like channel names). */
export const findActiveChannelFolderByName = async (db: Db, realmId: number, name: string): Promise<ChannelFolderRow | undefined> => {
  const { channelFolders } = tables(db);
  return first(
    db
      .select()
      .from(channelFolders)
      .where(and(eq(channelFolders.realmId, realmId), eq(channelFolders.name, name), eq(channelFolders.isArchived, false))),
  );
};

/** The order a new folder gets: after every existing one. */
export const nextChannelFolderOrder = async (db: Db, realmId: number): Promise<number> => {
  const { channelFolders } = tables(db);
  return (await first(
    db
      .select({ next: sql<number>`coalesce(max(${channelFolders.order}) + 1, 0)`.mapWith(Number) })
      .from(channelFolders)
      .where(eq(channelFolders.realmId, realmId)),
  ))!.next;
};

export const insertChannelFolder = async (db: Db, row: typeof channelFolders.$inferInsert): Promise<ChannelFolderRow> => {
  const { channelFolders } = tables(db);
  return first(db.insert(channelFolders).values(row).returning());
};

export const updateChannelFolder = async (db: Db, id: number, patch: Partial<typeof channelFolders.$inferInsert>): Promise<ChannelFolderRow> => {
  const { channelFolders } = tables(db);
  return (await first(db.update(channelFolders).set(patch).where(eq(channelFolders.id, id)).returning()))!;
};

/** Whether any channel that is not archived is in the folder. */
export const folderHasActiveChannels = async (db: Db, folderId: number): Promise<boolean> => {
  const { channels } = tables(db);
  return !!(await first(
    db
      .select({ id: channels.id })
      .from(channels)
      .where(and(eq(channels.folderId, folderId), eq(channels.isArchived, false)))
      .limit(1),
  ));
};

/** Ids of the realm's folders holding at least one web-public channel that is not archived (what spectators see). */
export const webPublicFolderIds = async (db: Db, realmId: number): Promise<Set<number>> => {
  const { channels } = tables(db);
  return new Set(
    (
      await all(
        db
          .selectDistinct({ folderId: channels.folderId })
          .from(channels)
          .where(and(eq(channels.realmId, realmId), eq(channels.isWebPublic, true), eq(channels.isArchived, false))),
      )
    ).flatMap((r) => (r.folderId === null ? [] : [r.folderId])),
  );
};
