import { sql } from "drizzle-orm";
import { index, integer, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { realms } from "./realms";

export const users = sqliteTable(
  "users",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    realmId: integer("realm_id")
      .notNull()
      .references(() => realms.id),
    email: text("email").notNull(),
    fullName: text("full_name").notNull(),
    role: integer("role").notNull(), // 100 owner, 200 administrator, 300 moderator, 400 member, 600 guest
    isActive: integer("is_active", { mode: "boolean" }).notNull().default(true),
    isBot: integer("is_bot", { mode: "boolean" }).notNull().default(false),
    botType: integer("bot_type"), // 1 generic, 2 incoming webhook, 3 outgoing webhook, 4 embedded
    botOwnerId: integer("bot_owner_id"),
    apiKey: text("api_key").notNull().unique(),
    passwordHash: text("password_hash"), // argon2id; null: no password login
    dateJoined: integer("date_joined").notNull(),
    timezone: text("timezone").notNull().default(""),
    avatarSource: text("avatar_source").notNull().default("G"), // G gravatar, U uploaded
    avatarVersion: integer("avatar_version").notNull().default(1),
    lastActive: integer("last_active"),
    // Personal settings that differ from the realm's defaults at join time (domain/user-settings.ts).
    settings: text("settings", { mode: "json" }).$type<Record<string, unknown>>().notNull().default(sql`'{}'`),
  },
  (t) => [uniqueIndex("users_realm_email").on(t.realmId, sql`lower(${t.email})`), index("users_realm").on(t.realmId)],
);

export type UserRow = typeof users.$inferSelect;
