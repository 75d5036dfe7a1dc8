import { sql } from "drizzle-orm";
import { integer, sqliteTable, text } from "drizzle-orm/sqlite-core";

export const realms = sqliteTable("realms", {
  id: integer("id").primaryKey({ autoIncrement: true }),
  // The subdomain; "" is the realm on the server's own host name.
  stringId: text("string_id").notNull().unique(),
  name: text("name").notNull(),
  description: text("description").notNull().default(""),
  dateCreated: integer("date_created").notNull(),
  deactivated: integer("deactivated", { mode: "boolean" }).notNull().default(false),
  // Organization settings (realm_* fields) that differ from their defaults; the property table in
  // domain/realm-settings.ts knows every setting, its type and default.
  // The organization icon: "G" the default, "U" uploaded by an administrator (stored beside avatars);
  // the version changes with every upload so its URL can be cached forever.
  iconSource: text("icon_source").$type<"G" | "U">().notNull().default("G"),
  iconVersion: integer("icon_version").notNull().default(0),
  settings: text("settings", { mode: "json" }).$type<Record<string, unknown>>().notNull().default(sql`'{}'`),
});

export type RealmRow = typeof realms.$inferSelect;
