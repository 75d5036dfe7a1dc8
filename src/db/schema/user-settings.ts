import { sql } from "drizzle-orm";
import { integer, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { realms } from "./realms";

// An organization's defaults for new users' personal settings (PATCH /realm/user_settings_defaults):
// only values that differ from the table in domain/user-settings.ts. A new user starts with these;
// later changes never reach existing users.
export const realmUserDefaults = sqliteTable("realm_user_defaults", {
  realmId: integer("realm_id")
    .primaryKey()
    .references(() => realms.id),
  settings: text("settings", { mode: "json" }).$type<Record<string, unknown>>().notNull().default(sql`'{}'`),
});
