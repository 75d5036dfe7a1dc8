import { sql } from "drizzle-orm";
import { integer, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { realms } from "./realms";
import { users } from "./users";

// Git repositories kept by this server (the `local` plugin source, the agent's workspaces). The
// repository itself is a bare git directory under the data directory, named by id.
export const repositories = sqliteTable(
  "ext_repositories",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    realmId: integer("realm_id")
      .notNull()
      .references(() => realms.id),
    name: text("name").notNull(),
    description: text("description").notNull().default(""),
    createdBy: integer("created_by").references(() => users.id),
    dateCreated: integer("date_created").notNull(),
    // The default branch's commit as of the last change confab made ("" while empty).
    head: text("head").notNull().default(""),
    dateUpdated: integer("date_updated"),
  },
  (t) => [uniqueIndex("ext_repositories_realm_name").on(t.realmId, sql`lower(${t.name})`)],
);

export type RepositoryRow = typeof repositories.$inferSelect;
