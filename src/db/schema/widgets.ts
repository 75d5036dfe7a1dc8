import { index, integer, primaryKey, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { plugins } from "./plugins";
import { users } from "./users";

// The latest document of each widget per scope: a link (0: none, the organization) and an item
// (a row's key, "" for the widget itself). `version` counts its changes.
export const widgetDocuments = sqliteTable(
  "ext_widget_documents",
  {
    installId: integer("install_id")
      .notNull()
      .references(() => plugins.id),
    widget: text("widget").notNull(),
    linkId: integer("link_id").notNull(),
    item: text("item").notNull(),
    document: text("document", { mode: "json" }).$type<Record<string, unknown>>().notNull(),
    version: integer("version").notNull(),
    dateUpdated: integer("date_updated").notNull(),
  },
  (t) => [primaryKey({ columns: [t.installId, t.widget, t.linkId, t.item] }), index("ext_widget_documents_link").on(t.linkId)],
);

export type WidgetDocumentRow = typeof widgetDocuments.$inferSelect;

// How one user draws one widget. Null: the team's value (the install's widget_defaults, the manifest).
export const widgetPreferences = sqliteTable(
  "ext_widget_preferences",
  {
    userId: integer("user_id")
      .notNull()
      .references(() => users.id),
    installId: integer("install_id")
      .notNull()
      .references(() => plugins.id),
    widget: text("widget").notNull(),
    shown: integer("shown", { mode: "boolean" }),
    position: integer("position"),
    label: text("label"),
    filters: text("filters", { mode: "json" }).$type<Record<string, string>>(),
    alerts: text("alerts", { mode: "json" }).$type<Record<string, number>>(),
    inColumn: integer("in_column", { mode: "boolean" }),
    restFigure: text("rest_figure"),
    // When the user first opened it (null: never, or marked new again).
    seen: integer("seen"),
  },
  (t) => [primaryKey({ columns: [t.userId, t.installId, t.widget] })],
);

export type WidgetPreferenceRow = typeof widgetPreferences.$inferSelect;
