// PostgreSQL twin of src/db/schema/messages.ts (docs/scaling.md, section 10): the same tables, columns, keys and
// indexes in PostgreSQL's types; what each means is said there. test/unit/schema-parity.test.ts keeps them in step.
import { sql } from "drizzle-orm";
import { bigint, bigserial, boolean, customType, index, pgTable, primaryKey, text } from "drizzle-orm/pg-core";
import { nocaseText } from "./channels";

const tsvector = customType<{ data: string }>({ dataType: () => "tsvector" });

/** The columns a message row has on both engines (the store reads messages through a table of these alone, db/engine.ts). */
export const messageColumns = () => ({
  id: bigserial("id", { mode: "number" }).primaryKey(),
  realmId: bigint("realm_id", { mode: "number" }).notNull(),
  senderId: bigint("sender_id", { mode: "number" }).notNull(),
  recipientId: bigint("recipient_id", { mode: "number" }).notNull(),
  topic: nocaseText("topic").notNull().default(""),
  content: text("content").notNull(),
  renderedContent: text("rendered_content").notNull(),
  dateSent: bigint("date_sent", { mode: "number" }).notNull(),
  client: text("client").notNull().default("API"),
  editHistory: text("edit_history"),
  lastEditTime: bigint("last_edit_time", { mode: "number" }),
  lastMovedTime: bigint("last_moved_time", { mode: "number" }),
  hasLink: boolean("has_link").notNull().default(false),
  hasImage: boolean("has_image").notNull().default(false),
  hasAttachment: boolean("has_attachment").notNull().default(false),
  isMeMessage: boolean("is_me_message").notNull().default(false),
});

export const messages = pgTable(
  "messages",
  {
    ...messageColumns(),
    // In place of SQLite's messages_fts: the topic and visible text, written by the indexer's batches
    // (null until then), searched with plainto_tsquery('english', …) (docs/scaling.md, section 5).
    searchTsv: tsvector("search_tsv"),
  },
  (t) => [
    index("messages_recipient_topic").on(t.recipientId, t.topic, t.id),
    index("messages_recipient").on(t.recipientId, t.id),
    index("messages_sender").on(t.senderId, t.id),
    index("messages_search").using("gin", t.searchTsv),
  ],
);

// SQLite's is hand-written (WITHOUT ROWID, migrations/0004); here an ordinary table with the same key and
// partial indexes, whose conditions the queries repeat verbatim.
export const userMessages = pgTable(
  "user_messages",
  {
    userId: bigint("user_id", { mode: "number" }).notNull(),
    messageId: bigint("message_id", { mode: "number" }).notNull(),
    flags: bigint("flags", { mode: "number" }).notNull().default(0),
  },
  (t) => [
    primaryKey({ columns: [t.userId, t.messageId] }),
    index("user_messages_message").on(t.messageId),
    index("user_messages_unread").on(t.userId, t.messageId).where(sql`(${t.flags} & 1) = 0`),
    index("user_messages_starred").on(t.userId, t.messageId).where(sql`(${t.flags} & 2) != 0`),
    index("user_messages_mentioned").on(t.userId, t.messageId).where(sql`(${t.flags} & 56) != 0`),
    index("user_messages_alerted").on(t.userId, t.messageId).where(sql`(${t.flags} & 64) != 0`),
    index("user_messages_private").on(t.userId, t.messageId).where(sql`(${t.flags} & 256) != 0`),
  ],
);
