import { and, eq } from "drizzle-orm";
import type { Db } from "../db/client";
import { inIds } from "../db/in-ids";
import { type WidgetDocumentRow, type WidgetPreferenceRow } from "../db/schema";
import { tables, type Tables } from "../db/engine";
import { first, all, run } from "../db/query";
import { raw } from "../db/raw";

export interface WidgetScope {
  installId: number;
  widget: string;
  linkId: number; // 0: the organization
  item: string;
}

const scopeIs = ({ widgetDocuments }: Tables, s: WidgetScope) =>
  and(eq(widgetDocuments.installId, s.installId), eq(widgetDocuments.widget, s.widget), eq(widgetDocuments.linkId, s.linkId), eq(widgetDocuments.item, s.item));

export const findDocument = async (db: Db, s: WidgetScope): Promise<WidgetDocumentRow | undefined> => {
  const { widgetDocuments } = tables(db);
  return first(
    db
      .select()
      .from(widgetDocuments)
      .where(scopeIs(tables(db), s)),
  );
};

export async function saveDocument(db: Db, row: WidgetDocumentRow) {
  const { widgetDocuments } = tables(db);
  await run(
    db
      .insert(widgetDocuments)
      .values(row)
      .onConflictDoUpdate({
        target: [widgetDocuments.installId, widgetDocuments.widget, widgetDocuments.linkId, widgetDocuments.item],
        set: { document: row.document, version: row.version, dateUpdated: row.dateUpdated },
      }),
  );
}

export const listDocuments = async (db: Db, installIds: readonly number[]): Promise<WidgetDocumentRow[]> => {
  const { widgetDocuments } = tables(db);
  return installIds.length
    ? await all(
        db
          .select()
          .from(widgetDocuments)
          .where(inIds(db, widgetDocuments.installId, installIds)),
      )
    : [];
};

export const deleteDocumentsOfLink = async (db: Db, linkId: number) => {
  const { widgetDocuments } = tables(db);
  return run(db.delete(widgetDocuments).where(eq(widgetDocuments.linkId, linkId)));
};

export async function deleteWidgetsOfInstall(db: Db, installId: number) {
  const { widgetDocuments, widgetPreferences } = tables(db);
  await run(db.delete(widgetDocuments).where(eq(widgetDocuments.installId, installId)));
  await run(db.delete(widgetPreferences).where(eq(widgetPreferences.installId, installId)));
}

export const findPreference = async (db: Db, userId: number, installId: number, widget: string): Promise<WidgetPreferenceRow | undefined> => {
  const { widgetPreferences } = tables(db);
  return first(
    db
      .select()
      .from(widgetPreferences)
      .where(and(eq(widgetPreferences.userId, userId), eq(widgetPreferences.installId, installId), eq(widgetPreferences.widget, widget))),
  );
};

export async function savePreference(db: Db, row: WidgetPreferenceRow) {
  const { widgetPreferences } = tables(db);
  const { userId, installId, widget, ...rest } = row;
  await run(
    db
      .insert(widgetPreferences)
      .values(row)
      .onConflictDoUpdate({ target: [widgetPreferences.userId, widgetPreferences.installId, widgetPreferences.widget], set: rest }),
  );
}

/** PostgreSQL's clock in UNIX milliseconds: one clock for every node (theirs may differ by some). */
const PG_NOW_MS = "(extract(epoch FROM clock_timestamp()) * 1000)::bigint";

/**
 * PostgreSQL (several nodes): claims the scope's next ext_widget event inside the pushing transaction.
 * The upsert wins only when the scope's last event is at least `intervalMs` old by PostgreSQL's clock; a
 * node racing it waits on the row and then sees the winner's mark, so one event goes per interval across
 * the nodes. Returns whether this transaction won, and otherwise how long until the interval ends (ms).
 */
export async function claimWidgetEvent(db: Db, scope: string, intervalMs: number): Promise<{ won: true } | { won: false; waitMs: number }> {
  const won = await raw(db).get<{ sent_at: number }>(
    `INSERT INTO widget_event_marks AS m (scope, sent_at) VALUES (?1, ${PG_NOW_MS})
     ON CONFLICT (scope) DO UPDATE SET sent_at = EXCLUDED.sent_at WHERE m.sent_at <= EXCLUDED.sent_at - ?2
     RETURNING sent_at`,
    scope,
    intervalMs,
  );
  if (won) return { won: true };
  const mark = await raw(db).get<{ wait: number }>(`SELECT sent_at + ?2 - ${PG_NOW_MS} AS wait FROM widget_event_marks WHERE scope = ?1`, scope, intervalMs);
  return { won: false, waitMs: Math.max(0, mark?.wait ?? 0) };
}
