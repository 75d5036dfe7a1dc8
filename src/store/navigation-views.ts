import { and, asc, eq } from "drizzle-orm";
import type { Db } from "../db/client";
import { navigationViews, type NavigationViewRow } from "../db/schema";

export const listViews = (db: Db, userId: number): NavigationViewRow[] =>
  db.select().from(navigationViews).where(eq(navigationViews.userId, userId)).orderBy(asc(navigationViews.id)).all();

export const findView = (db: Db, userId: number, fragment: string): NavigationViewRow | undefined =>
  db
    .select()
    .from(navigationViews)
    .where(and(eq(navigationViews.userId, userId), eq(navigationViews.fragment, fragment)))
    .get();

export const findViewByName = (db: Db, userId: number, name: string): NavigationViewRow | undefined =>
  db
    .select()
    .from(navigationViews)
    .where(and(eq(navigationViews.userId, userId), eq(navigationViews.name, name)))
    .get();

export const insertView = (db: Db, v: typeof navigationViews.$inferInsert): NavigationViewRow => db.insert(navigationViews).values(v).returning().get();

export const updateView = (db: Db, id: number, patch: Partial<Pick<NavigationViewRow, "isPinned" | "name">>): NavigationViewRow =>
  db.update(navigationViews).set(patch).where(eq(navigationViews.id, id)).returning().get()!;

export const deleteView = (db: Db, id: number) => db.delete(navigationViews).where(eq(navigationViews.id, id)).run();
