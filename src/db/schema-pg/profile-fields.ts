// PostgreSQL twin of src/db/schema/profile-fields.ts (docs/scaling.md, section 10): the same tables, columns, keys and
// indexes in PostgreSQL's types; what each means is said there. test/unit/schema-parity.test.ts keeps them in step.
import { bigint, bigserial, boolean, index, pgTable, primaryKey, text, uniqueIndex } from "drizzle-orm/pg-core";
import { realms } from "./realms";
import { users } from "./users";

export const profileFields = pgTable(
  "profile_fields",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    realmId: bigint("realm_id", { mode: "number" })
      .notNull()
      .references(() => realms.id),
    name: text("name").notNull(),
    hint: text("hint").notNull().default(""),
    type: bigint("type", { mode: "number" }).notNull(),
    fieldData: text("field_data").notNull().default(""),
    order: bigint("order", { mode: "number" }).notNull(),
    displayInProfileSummary: boolean("display_in_profile_summary").notNull().default(false),
    required: boolean("required").notNull().default(false),
    editableByUser: boolean("editable_by_user").notNull().default(true),
  },
  (t) => [uniqueIndex("profile_fields_realm_name").on(t.realmId, t.name)],
);

export const profileFieldValues = pgTable(
  "profile_field_values",
  {
    userId: bigint("user_id", { mode: "number" })
      .notNull()
      .references(() => users.id),
    fieldId: bigint("field_id", { mode: "number" })
      .notNull()
      .references(() => profileFields.id),
    value: text("value").notNull(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.fieldId] }), index("profile_field_values_field").on(t.fieldId)],
);
