// PostgreSQL twin of src/db/schema/widgets.ts (docs/scaling.md, section 10): the same tables, columns, keys and
// indexes in PostgreSQL's types; what each means is said there. test/unit/schema-parity.test.ts keeps them in step.
import { bigint, boolean, index, jsonb, pgTable, primaryKey, text } from "drizzle-orm/pg-core";
import { plugins } from "./plugins";
import { users } from "./users";

export const widgetDocuments = pgTable(
  "ext_widget_documents",
  {
    installId: bigint("install_id", { mode: "number" })
      .notNull()
      .references(() => plugins.id),
    widget: text("widget").notNull(),
    linkId: bigint("link_id", { mode: "number" }).notNull(),
    item: text("item").notNull(),
    document: jsonb("document").$type<Record<string, unknown>>().notNull(),
    version: bigint("version", { mode: "number" }).notNull(),
    dateUpdated: bigint("date_updated", { mode: "number" }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.installId, t.widget, t.linkId, t.item] }), index("ext_widget_documents_link").on(t.linkId)],
);

export const widgetPreferences = pgTable(
  "ext_widget_preferences",
  {
    userId: bigint("user_id", { mode: "number" })
      .notNull()
      .references(() => users.id),
    installId: bigint("install_id", { mode: "number" })
      .notNull()
      .references(() => plugins.id),
    widget: text("widget").notNull(),
    shown: boolean("shown"),
    position: bigint("position", { mode: "number" }),
    label: text("label"),
    filters: jsonb("filters").$type<Record<string, string>>(),
    alerts: jsonb("alerts").$type<Record<string, number>>(),
    inColumn: boolean("in_column"),
    restFigure: text("rest_figure"),
    seen: bigint("seen", { mode: "number" }),
  },
  (t) => [primaryKey({ columns: [t.userId, t.installId, t.widget] })],
);
