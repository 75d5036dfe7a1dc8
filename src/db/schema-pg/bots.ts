// PostgreSQL twin of src/db/schema/bots.ts (docs/scaling.md, section 10): the same tables, columns, keys and
// indexes in PostgreSQL's types; what each means is said there. test/unit/schema-parity.test.ts keeps them in step.
import { bigint, pgTable, text } from "drizzle-orm/pg-core";
import { users } from "./users";

export const botServices = pgTable("bot_services", {
  botId: bigint("bot_id", { mode: "number" })
    .primaryKey()
    .references(() => users.id),
  baseUrl: text("base_url").notNull(),
  token: text("token").notNull(),
  interface: bigint("interface", { mode: "number" }).notNull().default(1),
});
