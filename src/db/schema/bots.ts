import { integer, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { users } from "./users";

// The service behind an outgoing webhook bot: where its messages are posted, and the token it checks.
export const botServices = sqliteTable("bot_services", {
  botId: integer("bot_id")
    .primaryKey()
    .references(() => users.id),
  baseUrl: text("base_url").notNull(),
  token: text("token").notNull(),
  interface: integer("interface").notNull().default(1), // 1 generic, 2 Slack-compatible
});
