import { index, integer, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { users } from "./users";

// Legacy (non-E2EE) push registrations: APNs and FCM tokens the mobile apps hand over. confab has no push
// service, so they are kept (and can be removed) but nothing is pushed to them.
export const pushTokens = sqliteTable(
  "push_tokens",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id),
    kind: text("kind").$type<"apns" | "fcm">().notNull(),
    token: text("token").notNull(),
    iosAppId: text("ios_app_id"),
    lastUpdated: integer("last_updated").notNull(),
  },
  (t) => [uniqueIndex("push_tokens_unique").on(t.userId, t.kind, t.token), index("push_tokens_token").on(t.token)],
);
