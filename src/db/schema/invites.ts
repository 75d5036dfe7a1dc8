import { index, integer, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { realms } from "./realms";
import { users } from "./users";

// Email invitations (one address each) and reusable invitation links (email null), one table: both
// carry the same promises for the account they create (role, channels, groups, welcome text).
export const invites = sqliteTable(
  "invites",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    realmId: integer("realm_id")
      .notNull()
      .references(() => realms.id),
    referredBy: integer("referred_by")
      .notNull()
      .references(() => users.id),
    isMultiuse: integer("is_multiuse", { mode: "boolean" }).notNull(),
    email: text("email"), // null for a reusable link
    key: text("key").notNull(), // the secret in the invitation link
    invitedAs: integer("invited_as").notNull(),
    streamIds: text("stream_ids", { mode: "json" }).$type<number[]>().notNull(),
    groupIds: text("group_ids", { mode: "json" }).$type<number[]>().notNull(),
    includeRealmDefaultSubscriptions: integer("include_realm_default_subscriptions", { mode: "boolean" }).notNull(),
    welcomeMessageCustomText: text("welcome_message_custom_text"),
    notifyReferrerOnJoin: integer("notify_referrer_on_join", { mode: "boolean" }).notNull().default(false),
    dateCreated: integer("date_created").notNull(),
    expiresAt: integer("expires_at"), // null: never
    status: text("status").notNull().default("active"), // active, used (email invitations), revoked
  },
  (t) => [uniqueIndex("invites_key").on(t.key), index("invites_realm").on(t.realmId)],
);

export type InviteRow = typeof invites.$inferSelect;
