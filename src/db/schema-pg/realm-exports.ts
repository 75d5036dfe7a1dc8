// PostgreSQL twin of src/db/schema/realm-exports.ts (docs/scaling.md, section 10): the same tables, columns, keys and
// indexes in PostgreSQL's types; what each means is said there. test/unit/schema-parity.test.ts keeps them in step.
import { bigint, bigserial, doublePrecision, index, pgTable, text } from "drizzle-orm/pg-core";

export const realmExports = pgTable(
  "realm_exports",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    realmId: bigint("realm_id", { mode: "number" }).notNull(),
    actingUserId: bigint("acting_user_id", { mode: "number" }),
    exportType: bigint("export_type", { mode: "number" }).notNull(),
    dateRequested: doublePrecision("date_requested").notNull(),
    dateSucceeded: doublePrecision("date_succeeded"),
    dateFailed: doublePrecision("date_failed"),
    dateDeleted: doublePrecision("date_deleted"),
    path: text("path"),
  },
  (t) => [index("realm_exports_realm").on(t.realmId)],
);
