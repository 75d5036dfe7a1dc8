// PostgreSQL twin of src/db/schema/topics.ts (docs/scaling.md, section 10): the same tables, columns, keys and
// indexes in PostgreSQL's types; what each means is said there. test/unit/schema-parity.test.ts keeps them in step.
import { bigint, pgTable, primaryKey } from "drizzle-orm/pg-core";
import { nocaseText } from "./channels";

export const userTopics = pgTable(
  "user_topics",
  {
    userId: bigint("user_id", { mode: "number" }).notNull(),
    channelId: bigint("channel_id", { mode: "number" }).notNull(),
    topic: nocaseText("topic").notNull(),
    visibilityPolicy: bigint("visibility_policy", { mode: "number" }).notNull(),
    lastUpdated: bigint("last_updated", { mode: "number" }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.channelId, t.topic] })],
);
