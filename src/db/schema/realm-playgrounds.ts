import { integer, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { realms } from "./realms";

// Code playgrounds: where a code block of a language opens (Zulip's RealmPlayground).
export const realmPlaygrounds = sqliteTable(
  "realm_playgrounds",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    realmId: integer("realm_id")
      .notNull()
      .references(() => realms.id),
    name: text("name").notNull(),
    pygmentsLanguage: text("pygments_language").notNull(),
    urlTemplate: text("url_template").notNull(),
  },
  (t) => [uniqueIndex("realm_playgrounds_name").on(t.realmId, t.pygmentsLanguage, t.name)],
);

export type RealmPlaygroundRow = typeof realmPlaygrounds.$inferSelect;
