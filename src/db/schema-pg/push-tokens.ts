// PostgreSQL twin of src/db/schema/push-tokens.ts (docs/scaling.md, section 10): the same tables, columns, keys and
// indexes in PostgreSQL's types; what each means is said there. test/unit/schema-parity.test.ts keeps them in step.
import { bigint, bigserial, index, pgTable, text, uniqueIndex } from "drizzle-orm/pg-core";
import { users } from "./users";

export const pushTokens = pgTable(
  "push_tokens",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    userId: bigint("user_id", { mode: "number" })
      .notNull()
      .references(() => users.id),
    kind: text("kind").$type<"apns" | "fcm">().notNull(),
    token: text("token").notNull(),
    iosAppId: text("ios_app_id"),
    lastUpdated: bigint("last_updated", { mode: "number" }).notNull(),
  },
  (t) => [uniqueIndex("push_tokens_unique").on(t.userId, t.kind, t.token), index("push_tokens_token").on(t.token)],
);
