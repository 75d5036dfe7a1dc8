import { index, integer, primaryKey, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { messages } from "./messages";
import { realms } from "./realms";
import { users } from "./users";

/**
 * Files uploaded through POST /user_uploads. The bytes live at <data dir>/uploads/<path_id>, where
 * path_id is "<realm id>/<random>/<safe name>" and also the URL's tail (/user_uploads/<path_id>).
 */
export const attachments = sqliteTable(
  "attachments",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    realmId: integer("realm_id")
      .notNull()
      .references(() => realms.id),
    ownerId: integer("owner_id")
      .notNull()
      .references(() => users.id),
    pathId: text("path_id").notNull().unique(),
    /** The name as uploaded (Zulip's Attachment.file_name), shown in GET /attachments. */
    name: text("name").notNull(),
    contentType: text("content_type").notNull(),
    size: integer("size").notNull(),
    createTime: integer("create_time").notNull(), // UNIX seconds
    /** Since when no message links the file (set at upload); housekeeping deletes it after a grace period. */
    unreferencedSince: integer("unreferenced_since"),
  },
  (t) => [index("attachments_owner").on(t.ownerId), index("attachments_realm").on(t.realmId), index("attachments_unreferenced").on(t.unreferencedSince)],
);

/** Which messages link which uploads: maintained on send, edit and delete. */
export const messageAttachments = sqliteTable(
  "message_attachments",
  {
    messageId: integer("message_id")
      .notNull()
      .references(() => messages.id, { onDelete: "cascade" }),
    attachmentId: integer("attachment_id")
      .notNull()
      .references(() => attachments.id, { onDelete: "cascade" }),
  },
  (t) => [primaryKey({ columns: [t.attachmentId, t.messageId] }), index("message_attachments_message").on(t.messageId)],
);

export type AttachmentRow = typeof attachments.$inferSelect;
