// PostgreSQL twin of src/db/schema/realms.ts (docs/scaling.md, section 10): the same tables, columns, keys and
// indexes in PostgreSQL's types; what each means is said there. test/unit/schema-parity.test.ts keeps them in step.
import { sql } from "drizzle-orm";
import { bigint, bigserial, boolean, jsonb, pgTable, text } from "drizzle-orm/pg-core";

export const realms = pgTable("realms", {
  id: bigserial("id", { mode: "number" }).primaryKey(),
  stringId: text("string_id").notNull().unique(),
  name: text("name").notNull(),
  description: text("description").notNull().default(""),
  dateCreated: bigint("date_created", { mode: "number" }).notNull(),
  deactivated: boolean("deactivated").notNull().default(false),
  iconSource: text("icon_source").$type<"G" | "U">().notNull().default("G"),
  iconVersion: bigint("icon_version", { mode: "number" }).notNull().default(0),
  settings: jsonb("settings").$type<Record<string, unknown>>().notNull().default(sql`'{}'`),
});
