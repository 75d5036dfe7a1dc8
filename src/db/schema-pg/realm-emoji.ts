// PostgreSQL twin of src/db/schema/realm-emoji.ts (docs/scaling.md, section 10): the same tables, columns, keys and
// indexes in PostgreSQL's types; what each means is said there. test/unit/schema-parity.test.ts keeps them in step.
import { bigint, bigserial, boolean, index, pgTable, text } from "drizzle-orm/pg-core";
import { realms } from "./realms";

export const realmEmoji = pgTable(
  "realm_emoji",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    realmId: bigint("realm_id", { mode: "number" })
      .notNull()
      .references(() => realms.id),
    name: text("name").notNull(),
    authorId: bigint("author_id", { mode: "number" }),
    fileName: text("file_name").notNull(),
    deactivated: boolean("deactivated").notNull().default(false),
  },
  (t) => [index("realm_emoji_realm_name").on(t.realmId, t.name)],
);
