// PostgreSQL twin of src/db/schema/users.ts (docs/scaling.md, section 10): the same tables, columns, keys and
// indexes in PostgreSQL's types; what each means is said there. test/unit/schema-parity.test.ts keeps them in step.
import { sql } from "drizzle-orm";
import { bigint, bigserial, boolean, index, jsonb, pgTable, text, uniqueIndex } from "drizzle-orm/pg-core";
import { realms } from "./realms";

export const users = pgTable(
  "users",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    realmId: bigint("realm_id", { mode: "number" })
      .notNull()
      .references(() => realms.id),
    email: text("email").notNull(),
    fullName: text("full_name").notNull(),
    role: bigint("role", { mode: "number" }).notNull(),
    isActive: boolean("is_active").notNull().default(true),
    isBot: boolean("is_bot").notNull().default(false),
    botType: bigint("bot_type", { mode: "number" }),
    botOwnerId: bigint("bot_owner_id", { mode: "number" }),
    apiKey: text("api_key").notNull().unique(),
    passwordHash: text("password_hash"),
    dateJoined: bigint("date_joined", { mode: "number" }).notNull(),
    timezone: text("timezone").notNull().default(""),
    avatarSource: text("avatar_source").notNull().default("G"),
    avatarVersion: bigint("avatar_version", { mode: "number" }).notNull().default(1),
    lastActive: bigint("last_active", { mode: "number" }),
    settings: jsonb("settings").$type<Record<string, unknown>>().notNull().default(sql`'{}'`),
  },
  (t) => [uniqueIndex("users_realm_email").on(t.realmId, sql`lower(${t.email})`), index("users_realm").on(t.realmId)],
);
