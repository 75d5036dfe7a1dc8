// PostgreSQL twin of src/db/schema/channels.ts (docs/scaling.md, section 10): the same tables, columns, keys and
// indexes in PostgreSQL's types; what each means is said there. test/unit/schema-parity.test.ts keeps them in step.
import { sql } from "drizzle-orm";
import { bigint, bigserial, boolean, customType, index, jsonb, pgTable, primaryKey, text, uniqueIndex } from "drizzle-orm/pg-core";
import { realms } from "./realms";

export const nocaseText = customType<{ data: string; notNull: true }>({ dataType: () => "citext" });

export const recipients = pgTable(
  "recipients",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    realmId: bigint("realm_id", { mode: "number" })
      .notNull()
      .references(() => realms.id),
    channelId: bigint("channel_id", { mode: "number" }),
    dmKey: text("dm_key"),
  },
  (t) => [uniqueIndex("recipients_channel").on(t.channelId), uniqueIndex("recipients_dm_key").on(t.dmKey)],
);

export const dmMembers = pgTable(
  "dm_members",
  {
    recipientId: bigint("recipient_id", { mode: "number" }).notNull(),
    userId: bigint("user_id", { mode: "number" }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.recipientId] })],
);

export const channels = pgTable(
  "channels",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    realmId: bigint("realm_id", { mode: "number" })
      .notNull()
      .references(() => realms.id),
    recipientId: bigint("recipient_id", { mode: "number" }).notNull(),
    name: nocaseText("name").notNull(),
    description: text("description").notNull().default(""),
    renderedDescription: text("rendered_description").notNull().default(""),
    dateCreated: bigint("date_created", { mode: "number" }).notNull(),
    creatorId: bigint("creator_id", { mode: "number" }),
    inviteOnly: boolean("invite_only").notNull().default(false),
    isWebPublic: boolean("is_web_public").notNull().default(false),
    historyPublicToSubscribers: boolean("history_public_to_subscribers").notNull().default(true),
    messageRetentionDays: bigint("message_retention_days", { mode: "number" }),
    folderId: bigint("folder_id", { mode: "number" }),
    topicsPolicy: text("topics_policy").notNull().default("inherit"),
    isArchived: boolean("is_archived").notNull().default(false),
    settings: jsonb("settings").$type<Record<string, unknown>>().notNull().default(sql`'{}'`),
  },
  (t) => [uniqueIndex("channels_realm_name").on(t.realmId, t.name), index("channels_realm").on(t.realmId)],
);

export const defaultChannels = pgTable(
  "default_channels",
  {
    realmId: bigint("realm_id", { mode: "number" }).notNull(),
    channelId: bigint("channel_id", { mode: "number" }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.realmId, t.channelId] })],
);
