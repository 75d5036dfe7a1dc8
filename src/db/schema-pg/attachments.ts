// PostgreSQL twin of src/db/schema/attachments.ts (docs/scaling.md, section 10): the same tables, columns, keys and
// indexes in PostgreSQL's types; what each means is said there. test/unit/schema-parity.test.ts keeps them in step.
import { bigint, bigserial, index, pgTable, primaryKey, text } from "drizzle-orm/pg-core";
import { messages } from "./messages";
import { realms } from "./realms";
import { users } from "./users";

export const attachments = pgTable(
  "attachments",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    realmId: bigint("realm_id", { mode: "number" })
      .notNull()
      .references(() => realms.id),
    ownerId: bigint("owner_id", { mode: "number" })
      .notNull()
      .references(() => users.id),
    pathId: text("path_id").notNull().unique(),
    name: text("name").notNull(),
    contentType: text("content_type").notNull(),
    size: bigint("size", { mode: "number" }).notNull(),
    createTime: bigint("create_time", { mode: "number" }).notNull(),
    unreferencedSince: bigint("unreferenced_since", { mode: "number" }),
  },
  (t) => [index("attachments_owner").on(t.ownerId), index("attachments_realm").on(t.realmId), index("attachments_unreferenced").on(t.unreferencedSince)],
);

export const messageAttachments = pgTable(
  "message_attachments",
  {
    messageId: bigint("message_id", { mode: "number" })
      .notNull()
      .references(() => messages.id, { onDelete: "cascade" }),
    attachmentId: bigint("attachment_id", { mode: "number" })
      .notNull()
      .references(() => attachments.id, { onDelete: "cascade" }),
  },
  (t) => [primaryKey({ columns: [t.attachmentId, t.messageId] }), index("message_attachments_message").on(t.messageId)],
);
