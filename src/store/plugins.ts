import { and, asc, eq, isNotNull, lt, sql } from "drizzle-orm";
import type { Db } from "../db/client";
import { inIds } from "../db/in-ids";
import { pluginLinks, plugins, pluginSecrets, type PluginLinkRow, type PluginRow, type PluginSecretRow } from "../db/schema";

export const listPlugins = async (db: Db, realmId: number): Promise<PluginRow[]> =>
  db.select().from(plugins).where(eq(plugins.realmId, realmId)).orderBy(asc(plugins.id)).all();

/** Every install of every realm (the supervisor's view). */
export const listAllPlugins = async (db: Db): Promise<PluginRow[]> => db.select().from(plugins).orderBy(asc(plugins.id)).all();

export const findPlugin = async (db: Db, id: number): Promise<PluginRow | undefined> => db.select().from(plugins).where(eq(plugins.id, id)).get();

export const findPluginByBot = async (db: Db, botUserId: number): Promise<PluginRow | undefined> =>
  db.select().from(plugins).where(eq(plugins.botUserId, botUserId)).get();

export const insertPlugin = async (db: Db, row: typeof plugins.$inferInsert): Promise<PluginRow> => db.insert(plugins).values(row).returning().get();

export const updatePlugin = async (db: Db, id: number, patch: Partial<typeof plugins.$inferInsert>): Promise<PluginRow> =>
  db.update(plugins).set(patch).where(eq(plugins.id, id)).returning().get()!;

/** Installs removed before `before` (UNIX seconds). */
export const listRemovedBefore = async (db: Db, before: number): Promise<PluginRow[]> =>
  db
    .select()
    .from(plugins)
    .where(and(isNotNull(plugins.dateRemoved), lt(plugins.dateRemoved, before)))
    .all();

// ---- Secret slots ----

export const listSlots = async (db: Db, installIds: readonly number[]): Promise<PluginSecretRow[]> =>
  installIds.length ? db.select().from(pluginSecrets).where(inIds(pluginSecrets.installId, installIds)).all() : [];

export async function saveSlot(db: Db, row: PluginSecretRow) {
  db.insert(pluginSecrets)
    .values(row)
    .onConflictDoUpdate({
      target: [pluginSecrets.installId, pluginSecrets.name],
      set: { sealed: row.sealed, hint: row.hint, setBy: row.setBy, dateSet: row.dateSet },
    })
    .run();
}

export const deleteSlot = async (db: Db, installId: number, name: string) =>
  db
    .delete(pluginSecrets)
    .where(and(eq(pluginSecrets.installId, installId), eq(pluginSecrets.name, name)))
    .run();

export const deleteSlots = async (db: Db, installId: number) => db.delete(pluginSecrets).where(eq(pluginSecrets.installId, installId)).run();

// ---- Links ----

export const listLinks = async (db: Db, installIds: readonly number[]): Promise<PluginLinkRow[]> =>
  installIds.length ? db.select().from(pluginLinks).where(inIds(pluginLinks.installId, installIds)).orderBy(asc(pluginLinks.id)).all() : [];

export const findLink = async (db: Db, id: number): Promise<PluginLinkRow | undefined> => db.select().from(pluginLinks).where(eq(pluginLinks.id, id)).get();

export const insertLink = async (db: Db, row: typeof pluginLinks.$inferInsert): Promise<PluginLinkRow> => db.insert(pluginLinks).values(row).returning().get();

export const deleteLink = async (db: Db, id: number) => db.delete(pluginLinks).where(eq(pluginLinks.id, id)).run();

export const deleteLinks = async (db: Db, installId: number) => db.delete(pluginLinks).where(eq(pluginLinks.installId, installId)).run();

/** Installs per state across realms (GET /metrics). */
export const countPluginsByState = async (db: Db): Promise<{ state: string; n: number }[]> =>
  db.select({ state: plugins.state, n: sql<number>`count(*)` }).from(plugins).groupBy(plugins.state).all();
