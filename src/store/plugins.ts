import { and, asc, eq, isNotNull, lt, sql } from "drizzle-orm";
import type { Db } from "../db/client";
import { inIds } from "../db/in-ids";
import { type pluginLinks, type plugins, type PluginLinkRow, type PluginRow, type PluginSecretRow } from "../db/schema";
import { tables } from "../db/engine";
import { first, all, run } from "../db/query";

export const listPlugins = async (db: Db, realmId: number): Promise<PluginRow[]> => {
  const { plugins } = tables(db);
  return all(db.select().from(plugins).where(eq(plugins.realmId, realmId)).orderBy(asc(plugins.id)));
};

/** Every install of every realm (the supervisor's view). */
export const listAllPlugins = async (db: Db): Promise<PluginRow[]> => {
  const { plugins } = tables(db);
  return all(db.select().from(plugins).orderBy(asc(plugins.id)));
};

export const findPlugin = async (db: Db, id: number): Promise<PluginRow | undefined> => {
  const { plugins } = tables(db);
  return first(db.select().from(plugins).where(eq(plugins.id, id)));
};

export const findPluginByBot = async (db: Db, botUserId: number): Promise<PluginRow | undefined> => {
  const { plugins } = tables(db);
  return first(db.select().from(plugins).where(eq(plugins.botUserId, botUserId)));
};

export const insertPlugin = async (db: Db, row: typeof plugins.$inferInsert): Promise<PluginRow> => {
  const { plugins } = tables(db);
  return first(db.insert(plugins).values(row).returning());
};

export const updatePlugin = async (db: Db, id: number, patch: Partial<typeof plugins.$inferInsert>): Promise<PluginRow> => {
  const { plugins } = tables(db);
  return (await first(db.update(plugins).set(patch).where(eq(plugins.id, id)).returning()))!;
};

/** Installs removed before `before` (UNIX seconds). */
export const listRemovedBefore = async (db: Db, before: number): Promise<PluginRow[]> => {
  const { plugins } = tables(db);
  return all(
    db
      .select()
      .from(plugins)
      .where(and(isNotNull(plugins.dateRemoved), lt(plugins.dateRemoved, before))),
  );
};

// ---- Secret slots ----

export const listSlots = async (db: Db, installIds: readonly number[]): Promise<PluginSecretRow[]> => {
  const { pluginSecrets } = tables(db);
  return installIds.length
    ? await all(
        db
          .select()
          .from(pluginSecrets)
          .where(inIds(db, pluginSecrets.installId, installIds)),
      )
    : [];
};

export async function saveSlot(db: Db, row: PluginSecretRow) {
  const { pluginSecrets } = tables(db);
  await run(
    db
      .insert(pluginSecrets)
      .values(row)
      .onConflictDoUpdate({
        target: [pluginSecrets.installId, pluginSecrets.name],
        set: { sealed: row.sealed, hint: row.hint, setBy: row.setBy, dateSet: row.dateSet },
      }),
  );
}

export const deleteSlot = async (db: Db, installId: number, name: string) => {
  const { pluginSecrets } = tables(db);
  return run(db.delete(pluginSecrets).where(and(eq(pluginSecrets.installId, installId), eq(pluginSecrets.name, name))));
};

export const deleteSlots = async (db: Db, installId: number) => {
  const { pluginSecrets } = tables(db);
  return run(db.delete(pluginSecrets).where(eq(pluginSecrets.installId, installId)));
};

// ---- Links ----

export const listLinks = async (db: Db, installIds: readonly number[]): Promise<PluginLinkRow[]> => {
  const { pluginLinks } = tables(db);
  return installIds.length
    ? await all(
        db
          .select()
          .from(pluginLinks)
          .where(inIds(db, pluginLinks.installId, installIds))
          .orderBy(asc(pluginLinks.id)),
      )
    : [];
};

export const findLink = async (db: Db, id: number): Promise<PluginLinkRow | undefined> => {
  const { pluginLinks } = tables(db);
  return first(db.select().from(pluginLinks).where(eq(pluginLinks.id, id)));
};

export const insertLink = async (db: Db, row: typeof pluginLinks.$inferInsert): Promise<PluginLinkRow> => {
  const { pluginLinks } = tables(db);
  return first(db.insert(pluginLinks).values(row).returning());
};

export const deleteLink = async (db: Db, id: number) => {
  const { pluginLinks } = tables(db);
  return run(db.delete(pluginLinks).where(eq(pluginLinks.id, id)));
};

export const deleteLinks = async (db: Db, installId: number) => {
  const { pluginLinks } = tables(db);
  return run(db.delete(pluginLinks).where(eq(pluginLinks.installId, installId)));
};

/** Installs per state across realms (GET /metrics). */
export const countPluginsByState = async (db: Db): Promise<{ state: string; n: number }[]> => {
  const { plugins } = tables(db);
  return all(
    db
      .select({ state: plugins.state, n: sql<number>`count(*)`.mapWith(Number) })
      .from(plugins)
      .groupBy(plugins.state),
  );
};
