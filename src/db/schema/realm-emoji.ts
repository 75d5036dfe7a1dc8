import { index, integer, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { realms } from "./realms";

/** Custom emoji uploaded to a realm. Removing one deactivates it: old messages keep rendering. */
export const realmEmoji = sqliteTable(
  "realm_emoji",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    realmId: integer("realm_id")
      .notNull()
      .references(() => realms.id),
    name: text("name").notNull(),
    authorId: integer("author_id"),
    // The stored image's file name (<random>.<extension>) under <data dir>/emoji/<realm id>/.
    fileName: text("file_name").notNull(),
    deactivated: integer("deactivated", { mode: "boolean" }).notNull().default(false),
  },
  (t) => [index("realm_emoji_realm_name").on(t.realmId, t.name)],
);

export type RealmEmojiRow = typeof realmEmoji.$inferSelect;
