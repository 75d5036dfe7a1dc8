import { integer, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { users } from "./users";

// A user's pinned or named views (level 390): built-in views by fragment, custom ones with a name.
export const navigationViews = sqliteTable(
  "navigation_views",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id),
    fragment: text("fragment").notNull(),
    isPinned: integer("is_pinned", { mode: "boolean" }).notNull(),
    name: text("name"), // null for built-in views
  },
  (t) => [uniqueIndex("navigation_views_user_fragment").on(t.userId, t.fragment)],
);

export type NavigationViewRow = typeof navigationViews.$inferSelect;
