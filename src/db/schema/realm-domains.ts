import { integer, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { realms } from "./realms";

// Email domains an organization accepts for new accounts when emails_restricted_to_domains is on.
export const realmDomains = sqliteTable(
  "realm_domains",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    realmId: integer("realm_id")
      .notNull()
      .references(() => realms.id),
    domain: text("domain").notNull(), // lower case
    allowSubdomains: integer("allow_subdomains", { mode: "boolean" }).notNull().default(false),
  },
  (t) => [uniqueIndex("realm_domains_realm_domain").on(t.realmId, t.domain)],
);

export type RealmDomainRow = typeof realmDomains.$inferSelect;
