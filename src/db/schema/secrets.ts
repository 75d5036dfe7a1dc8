import { integer, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { realms } from "./realms";
import { users } from "./users";

// Organization secrets (contract: "Organization secret"). The value is sealed with AES-256-GCM under
// a key kept outside the database (lib/crypto.ts); only its hint is stored in the clear.
export const secrets = sqliteTable(
  "ext_secrets",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    realmId: integer("realm_id")
      .notNull()
      .references(() => realms.id),
    name: text("name").notNull(),
    sealed: text("sealed").notNull(),
    hint: text("hint").notNull(),
    note: text("note").notNull().default(""),
    addedBy: integer("added_by").references(() => users.id),
    dateAdded: integer("date_added").notNull(),
    replacedBy: integer("replaced_by").references(() => users.id),
    dateReplaced: integer("date_replaced"),
    dateUsed: integer("date_used"),
  },
  (t) => [uniqueIndex("ext_secrets_realm_name").on(t.realmId, t.name)],
);

export type SecretRow = typeof secrets.$inferSelect;
