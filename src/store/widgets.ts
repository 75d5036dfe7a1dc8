import { and, eq } from "drizzle-orm";
import type { Db } from "../db/client";
import { inIds } from "../db/in-ids";
import { widgetDocuments, widgetPreferences, type WidgetDocumentRow, type WidgetPreferenceRow } from "../db/schema";

export interface WidgetScope {
  installId: number;
  widget: string;
  linkId: number; // 0: the organization
  item: string;
}

const scopeIs = (s: WidgetScope) =>
  and(eq(widgetDocuments.installId, s.installId), eq(widgetDocuments.widget, s.widget), eq(widgetDocuments.linkId, s.linkId), eq(widgetDocuments.item, s.item));

export const findDocument = async (db: Db, s: WidgetScope): Promise<WidgetDocumentRow | undefined> => db.select().from(widgetDocuments).where(scopeIs(s)).get();

export async function saveDocument(db: Db, row: WidgetDocumentRow) {
  db.insert(widgetDocuments)
    .values(row)
    .onConflictDoUpdate({
      target: [widgetDocuments.installId, widgetDocuments.widget, widgetDocuments.linkId, widgetDocuments.item],
      set: { document: row.document, version: row.version, dateUpdated: row.dateUpdated },
    })
    .run();
}

export const listDocuments = async (db: Db, installIds: readonly number[]): Promise<WidgetDocumentRow[]> =>
  installIds.length ? db.select().from(widgetDocuments).where(inIds(widgetDocuments.installId, installIds)).all() : [];

export const deleteDocumentsOfLink = async (db: Db, linkId: number) => db.delete(widgetDocuments).where(eq(widgetDocuments.linkId, linkId)).run();

export async function deleteWidgetsOfInstall(db: Db, installId: number) {
  db.delete(widgetDocuments).where(eq(widgetDocuments.installId, installId)).run();
  db.delete(widgetPreferences).where(eq(widgetPreferences.installId, installId)).run();
}

export const findPreference = async (db: Db, userId: number, installId: number, widget: string): Promise<WidgetPreferenceRow | undefined> =>
  db
    .select()
    .from(widgetPreferences)
    .where(and(eq(widgetPreferences.userId, userId), eq(widgetPreferences.installId, installId), eq(widgetPreferences.widget, widget)))
    .get();

export async function savePreference(db: Db, row: WidgetPreferenceRow) {
  const { userId, installId, widget, ...rest } = row;
  db.insert(widgetPreferences)
    .values(row)
    .onConflictDoUpdate({ target: [widgetPreferences.userId, widgetPreferences.installId, widgetPreferences.widget], set: rest })
    .run();
}
