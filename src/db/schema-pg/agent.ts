// PostgreSQL twin of src/db/schema/agent.ts (docs/scaling.md, section 10): the same tables, columns, keys and
// indexes in PostgreSQL's types; what each means is said there. test/unit/schema-parity.test.ts keeps them in step.
import { bigint, bigserial, index, pgTable, text, uniqueIndex } from "drizzle-orm/pg-core";
import { channels, nocaseText } from "./channels";
import { realms } from "./realms";
import { users } from "./users";

export const agentRuns = pgTable(
  "ext_agent_runs",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    realmId: bigint("realm_id", { mode: "number" })
      .notNull()
      .references(() => realms.id),
    requestedBy: bigint("requested_by", { mode: "number" }).references(() => users.id),
    channelId: bigint("channel_id", { mode: "number" }).references(() => channels.id),
    recipientId: bigint("recipient_id", { mode: "number" }).notNull(),
    topic: nocaseText("topic").notNull().default(""),
    messageId: bigint("message_id", { mode: "number" }).notNull(),
    turnMessageId: bigint("turn_message_id", { mode: "number" }),
    state: text("state").notNull(),
    turns: bigint("turns", { mode: "number" }).notNull().default(0),
    dateStarted: bigint("date_started", { mode: "number" }).notNull(),
    dateEnded: bigint("date_ended", { mode: "number" }),
    exitStatus: bigint("exit_status", { mode: "number" }),
    keyHash: text("key_hash"),
  },
  (t) => [
    index("ext_agent_runs_conversation").on(t.recipientId, t.topic, t.state),
    index("ext_agent_runs_realm").on(t.realmId, t.id),
    uniqueIndex("ext_agent_runs_key").on(t.keyHash),
  ],
);
