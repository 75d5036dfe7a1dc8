import { index, integer, real, sqliteTable, text } from "drizzle-orm/sqlite-core";

/**
 * A data export an administrator asked for (POST /export/realm). It is written in the background; the
 * finished archive lives under the data directory at `path`, reachable through a URL with a random part.
 */
export const realmExports = sqliteTable(
  "realm_exports",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    realmId: integer("realm_id").notNull(),
    actingUserId: integer("acting_user_id"),
    exportType: integer("export_type").notNull(), // 1 public, 2 standard (private data of consenting users)
    // UNIX seconds with a fraction, as Zulip reports them.
    dateRequested: real("date_requested").notNull(),
    dateSucceeded: real("date_succeeded"),
    dateFailed: real("date_failed"),
    dateDeleted: real("date_deleted"),
    // "<realm id>/<random>/<file name>" under <data dir>/exports, once written.
    path: text("path"),
  },
  (t) => [index("realm_exports_realm").on(t.realmId)],
);

export type RealmExportRow = typeof realmExports.$inferSelect;
