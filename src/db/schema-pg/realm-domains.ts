// PostgreSQL twin of src/db/schema/realm-domains.ts (docs/scaling.md, section 10): the same tables, columns, keys and
// indexes in PostgreSQL's types; what each means is said there. test/unit/schema-parity.test.ts keeps them in step.
import { bigint, bigserial, boolean, pgTable, text, uniqueIndex } from "drizzle-orm/pg-core";
import { realms } from "./realms";

export const realmDomains = pgTable(
  "realm_domains",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    realmId: bigint("realm_id", { mode: "number" })
      .notNull()
      .references(() => realms.id),
    domain: text("domain").notNull(),
    allowSubdomains: boolean("allow_subdomains").notNull().default(false),
  },
  (t) => [uniqueIndex("realm_domains_realm_domain").on(t.realmId, t.domain)],
);
