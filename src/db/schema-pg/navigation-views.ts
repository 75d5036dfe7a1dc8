// PostgreSQL twin of src/db/schema/navigation-views.ts (docs/scaling.md, section 10): the same tables, columns, keys and
// indexes in PostgreSQL's types; what each means is said there. test/unit/schema-parity.test.ts keeps them in step.
import { bigint, bigserial, boolean, pgTable, text, uniqueIndex } from "drizzle-orm/pg-core";
import { users } from "./users";

export const navigationViews = pgTable(
  "navigation_views",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    userId: bigint("user_id", { mode: "number" })
      .notNull()
      .references(() => users.id),
    fragment: text("fragment").notNull(),
    isPinned: boolean("is_pinned").notNull(),
    name: text("name"),
  },
  (t) => [uniqueIndex("navigation_views_user_fragment").on(t.userId, t.fragment)],
);
