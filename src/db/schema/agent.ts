import { index, integer, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { channels, nocaseText } from "./channels";
import { realms } from "./realms";
import { users } from "./users";

// Runs of the organization's agent (docs/extensions.md, "The agent"). A run belongs to one
// conversation: a channel topic, or a direct-message conversation (channel_id null, topic "").
export const agentRuns = sqliteTable(
  "ext_agent_runs",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    realmId: integer("realm_id")
      .notNull()
      .references(() => realms.id),
    requestedBy: integer("requested_by").references(() => users.id),
    channelId: integer("channel_id").references(() => channels.id),
    // The conversation's recipient (channel or direct-message group): where the agent answers.
    recipientId: integer("recipient_id").notNull(),
    topic: nocaseText("topic").notNull().default(""), // compared like message topics
    messageId: integer("message_id").notNull(),
    // The message the latest turn answers (what a plugin made in that turn was asked for in).
    turnMessageId: integer("turn_message_id"),
    state: text("state").notNull(), // running, done, failed, cancelled
    turns: integer("turns").notNull().default(0),
    dateStarted: integer("date_started").notNull(),
    dateEnded: integer("date_ended"),
    exitStatus: integer("exit_status"),
    // SHA-256 of the run's API key for the agent's bot; cleared when the run ends, so the key dies with it.
    keyHash: text("key_hash"),
  },
  (t) => [
    index("ext_agent_runs_conversation").on(t.recipientId, t.topic, t.state),
    index("ext_agent_runs_realm").on(t.realmId, t.id),
    uniqueIndex("ext_agent_runs_key").on(t.keyHash),
  ],
);

export type AgentRunRow = typeof agentRuns.$inferSelect;
