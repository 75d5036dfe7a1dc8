import { sql } from "drizzle-orm";
import { customType, index, integer, primaryKey, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { realms } from "./realms";

/** Text compared case-insensitively (ASCII), as Zulip compares channel names and topics. */
export const nocaseText = customType<{ data: string; notNull: true }>({ dataType: () => "text COLLATE NOCASE" });

/**
 * Where a message goes: a channel, or one direct-message conversation (its participants' ids, sorted,
 * joined by ","; a note to self has one id). Messages point here, so one integer names a conversation.
 */
export const recipients = sqliteTable(
  "recipients",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    realmId: integer("realm_id")
      .notNull()
      .references(() => realms.id),
    channelId: integer("channel_id"),
    dmKey: text("dm_key"),
  },
  (t) => [uniqueIndex("recipients_channel").on(t.channelId), uniqueIndex("recipients_dm_key").on(t.dmKey)],
);

/** The participants of each direct-message conversation, for dm-including and recent conversations. */
export const dmMembers = sqliteTable(
  "dm_members",
  {
    recipientId: integer("recipient_id").notNull(),
    userId: integer("user_id").notNull(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.recipientId] })],
);

export const channels = sqliteTable(
  "channels",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    realmId: integer("realm_id")
      .notNull()
      .references(() => realms.id),
    recipientId: integer("recipient_id").notNull(),
    name: nocaseText("name").notNull(),
    description: text("description").notNull().default(""),
    renderedDescription: text("rendered_description").notNull().default(""),
    dateCreated: integer("date_created").notNull(),
    creatorId: integer("creator_id"),
    inviteOnly: integer("invite_only", { mode: "boolean" }).notNull().default(false),
    isWebPublic: integer("is_web_public", { mode: "boolean" }).notNull().default(false),
    historyPublicToSubscribers: integer("history_public_to_subscribers", { mode: "boolean" }).notNull().default(true),
    // null: the realm's setting; -1: forever.
    messageRetentionDays: integer("message_retention_days"),
    folderId: integer("folder_id"),
    topicsPolicy: text("topics_policy").notNull().default("inherit"),
    isArchived: integer("is_archived", { mode: "boolean" }).notNull().default(false),
    // The channel's can_*_group settings as group-setting values (domain/channels.ts lists them).
    settings: text("settings", { mode: "json" }).$type<Record<string, unknown>>().notNull().default(sql`'{}'`),
  },
  (t) => [uniqueIndex("channels_realm_name").on(t.realmId, t.name), index("channels_realm").on(t.realmId)],
);

/** The realm's default channels: new users are subscribed to them. */
export const defaultChannels = sqliteTable(
  "default_channels",
  {
    realmId: integer("realm_id").notNull(),
    channelId: integer("channel_id").notNull(),
  },
  (t) => [primaryKey({ columns: [t.realmId, t.channelId] })],
);

export type ChannelRow = typeof channels.$inferSelect;
export type RecipientRow = typeof recipients.$inferSelect;
