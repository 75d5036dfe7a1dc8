import { and, asc, eq } from "drizzle-orm";
import type { Db } from "../db/client";
import { type navigationViews, type NavigationViewRow } from "../db/schema";
import { tables } from "../db/engine";
import { first, all, run } from "../db/query";

export const listViews = async (db: Db, userId: number): Promise<NavigationViewRow[]> => {
  const { navigationViews } = tables(db);
  return all(db.select().from(navigationViews).where(eq(navigationViews.userId, userId)).orderBy(asc(navigationViews.id)));
};

export const findView = async (db: Db, userId: number, fragment: string): Promise<NavigationViewRow | undefined> => {
  const { navigationViews } = tables(db);
  return first(
    db
      .select()
      .from(navigationViews)
      .where(and(eq(navigationViews.userId, userId), eq(navigationViews.fragment, fragment))),
  );
};

export const findViewByName = async (db: Db, userId: number, name: string): Promise<NavigationViewRow | undefined> => {
  const { navigationViews } = tables(db);
  return first(
    db
      .select()
      .from(navigationViews)
      .where(and(eq(navigationViews.userId, userId), eq(navigationViews.name, name))),
  );
};

export const insertView = async (db: Db, v: typeof navigationViews.$inferInsert): Promise<NavigationViewRow> => {
  const { navigationViews } = tables(db);
  return first(db.insert(navigationViews).values(v).returning());
};

export const updateView = async (db: Db, id: number, patch: Partial<Pick<NavigationViewRow, "isPinned" | "name">>): Promise<NavigationViewRow> => {
  const { navigationViews } = tables(db);
  return (await first(db.update(navigationViews).set(patch).where(eq(navigationViews.id, id)).returning()))!;
};

export const deleteView = async (db: Db, id: number) => {
  const { navigationViews } = tables(db);
  return run(db.delete(navigationViews).where(eq(navigationViews.id, id)));
};
