import { index, integer, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { realms } from "./realms";

/** Realm linkifiers: text matching `pattern` becomes a link built from `url_template` (RFC 6570). */
export const linkifiers = sqliteTable(
  "linkifiers",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    realmId: integer("realm_id")
      .notNull()
      .references(() => realms.id),
    pattern: text("pattern").notNull(),
    urlTemplate: text("url_template").notNull(),
    order: integer("order").notNull().default(0),
  },
  (t) => [uniqueIndex("linkifiers_realm_pattern").on(t.realmId, t.pattern), index("linkifiers_realm").on(t.realmId)],
);

export type LinkifierRow = typeof linkifiers.$inferSelect;
