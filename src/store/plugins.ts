import { and, asc, eq, isNotNull, lt, sql } from "drizzle-orm";
import type { Db } from "../db/client";
import { inIds } from "../db/in-ids";
import { pluginLinks, plugins, pluginSecrets, type PluginLinkRow, type PluginRow, type PluginSecretRow } from "../db/schema";

export const listPlugins = (db: Db, realmId: number): PluginRow[] =>
  db.select().from(plugins).where(eq(plugins.realmId, realmId)).orderBy(asc(plugins.id)).all();

/** Every install of every realm (the supervisor's view). */
export const listAllPlugins = (db: Db): PluginRow[] => db.select().from(plugins).orderBy(asc(plugins.id)).all();

export const findPlugin = (db: Db, id: number): PluginRow | undefined => db.select().from(plugins).where(eq(plugins.id, id)).get();

export const findPluginByBot = (db: Db, botUserId: number): PluginRow | undefined => db.select().from(plugins).where(eq(plugins.botUserId, botUserId)).get();

export const insertPlugin = (db: Db, row: typeof plugins.$inferInsert): PluginRow => db.insert(plugins).values(row).returning().get();

export const updatePlugin = (db: Db, id: number, patch: Partial<typeof plugins.$inferInsert>): PluginRow =>
  db.update(plugins).set(patch).where(eq(plugins.id, id)).returning().get()!;

/** Installs removed before `before` (UNIX seconds). */
export const listRemovedBefore = (db: Db, before: number): PluginRow[] =>
  db
    .select()
    .from(plugins)
    .where(and(isNotNull(plugins.dateRemoved), lt(plugins.dateRemoved, before)))
    .all();

// ---- Secret slots ----

export const listSlots = (db: Db, installIds: readonly number[]): PluginSecretRow[] =>
  installIds.length ? db.select().from(pluginSecrets).where(inIds(pluginSecrets.installId, installIds)).all() : [];

export function saveSlot(db: Db, row: PluginSecretRow) {
  db.insert(pluginSecrets)
    .values(row)
    .onConflictDoUpdate({
      target: [pluginSecrets.installId, pluginSecrets.name],
      set: { sealed: row.sealed, hint: row.hint, setBy: row.setBy, dateSet: row.dateSet },
    })
    .run();
}

export const deleteSlot = (db: Db, installId: number, name: string) =>
  db
    .delete(pluginSecrets)
    .where(and(eq(pluginSecrets.installId, installId), eq(pluginSecrets.name, name)))
    .run();

export const deleteSlots = (db: Db, installId: number) => db.delete(pluginSecrets).where(eq(pluginSecrets.installId, installId)).run();

// ---- Links ----

export const listLinks = (db: Db, installIds: readonly number[]): PluginLinkRow[] =>
  installIds.length ? db.select().from(pluginLinks).where(inIds(pluginLinks.installId, installIds)).orderBy(asc(pluginLinks.id)).all() : [];

export const findLink = (db: Db, id: number): PluginLinkRow | undefined => db.select().from(pluginLinks).where(eq(pluginLinks.id, id)).get();

export const insertLink = (db: Db, row: typeof pluginLinks.$inferInsert): PluginLinkRow => db.insert(pluginLinks).values(row).returning().get();

export const deleteLink = (db: Db, id: number) => db.delete(pluginLinks).where(eq(pluginLinks.id, id)).run();

export const deleteLinks = (db: Db, installId: number) => db.delete(pluginLinks).where(eq(pluginLinks.installId, installId)).run();

/** Installs per state across realms (GET /metrics). */
export const countPluginsByState = (db: Db): { state: string; n: number }[] =>
  db.select({ state: plugins.state, n: sql<number>`count(*)` }).from(plugins).groupBy(plugins.state).all();
