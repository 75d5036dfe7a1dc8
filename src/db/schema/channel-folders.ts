import { index, integer, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { nocaseText } from "./channels";
import { realms } from "./realms";

/** Channel folders (level 389): named groups of channels, ordered by `order`; archived ones stay listed. */
export const channelFolders = sqliteTable(
  "channel_folders",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    realmId: integer("realm_id")
      .notNull()
      .references(() => realms.id),
    // Unique (ignoring ASCII case) among the realm's folders that are not archived: checked by the action.
    name: nocaseText("name").notNull(),
    description: text("description").notNull().default(""),
    renderedDescription: text("rendered_description").notNull().default(""),
    order: integer("order").notNull().default(0),
    creatorId: integer("creator_id"),
    dateCreated: integer("date_created").notNull(),
    isArchived: integer("is_archived", { mode: "boolean" }).notNull().default(false),
  },
  (t) => [index("channel_folders_realm").on(t.realmId)],
);

export type ChannelFolderRow = typeof channelFolders.$inferSelect;
