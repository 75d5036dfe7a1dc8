import { index, integer, primaryKey, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { realms } from "./realms";
import { users } from "./users";

// An organization's custom profile fields, and each user's values for them.
export const profileFields = sqliteTable(
  "profile_fields",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    realmId: integer("realm_id")
      .notNull()
      .references(() => realms.id),
    name: text("name").notNull(),
    hint: text("hint").notNull().default(""),
    type: integer("type").notNull(), // 1 short text ... 8 pronouns (domain/profile-fields.ts)
    fieldData: text("field_data").notNull().default(""), // JSON text, as Zulip's API carries it
    order: integer("order").notNull(),
    displayInProfileSummary: integer("display_in_profile_summary", { mode: "boolean" }).notNull().default(false),
    required: integer("required", { mode: "boolean" }).notNull().default(false),
    editableByUser: integer("editable_by_user", { mode: "boolean" }).notNull().default(true),
  },
  (t) => [uniqueIndex("profile_fields_realm_name").on(t.realmId, t.name)],
);

export const profileFieldValues = sqliteTable(
  "profile_field_values",
  {
    userId: integer("user_id")
      .notNull()
      .references(() => users.id),
    fieldId: integer("field_id")
      .notNull()
      .references(() => profileFields.id),
    value: text("value").notNull(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.fieldId] }), index("profile_field_values_field").on(t.fieldId)],
);

export type ProfileFieldRow = typeof profileFields.$inferSelect;
