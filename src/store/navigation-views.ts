import { and, asc, eq } from "drizzle-orm";
import type { Db } from "../db/client";
import { navigationViews, type NavigationViewRow } from "../db/schema";

export const listViews = async (db: Db, userId: number): Promise<NavigationViewRow[]> =>
  db.select().from(navigationViews).where(eq(navigationViews.userId, userId)).orderBy(asc(navigationViews.id)).all();

export const findView = async (db: Db, userId: number, fragment: string): Promise<NavigationViewRow | undefined> =>
  db
    .select()
    .from(navigationViews)
    .where(and(eq(navigationViews.userId, userId), eq(navigationViews.fragment, fragment)))
    .get();

export const findViewByName = async (db: Db, userId: number, name: string): Promise<NavigationViewRow | undefined> =>
  db
    .select()
    .from(navigationViews)
    .where(and(eq(navigationViews.userId, userId), eq(navigationViews.name, name)))
    .get();

export const insertView = async (db: Db, v: typeof navigationViews.$inferInsert): Promise<NavigationViewRow> =>
  db.insert(navigationViews).values(v).returning().get();

export const updateView = async (db: Db, id: number, patch: Partial<Pick<NavigationViewRow, "isPinned" | "name">>): Promise<NavigationViewRow> =>
  db.update(navigationViews).set(patch).where(eq(navigationViews.id, id)).returning().get()!;

export const deleteView = async (db: Db, id: number) => db.delete(navigationViews).where(eq(navigationViews.id, id)).run();
