import { index, integer, primaryKey, sqliteTable, text } from "drizzle-orm/sqlite-core";

/**
 * A user's subscription to a channel, with its personal properties. A row stays (active false) after
 * unsubscribing, so the channel is listed under `unsubscribed` and the properties come back on return.
 * The notification settings are null while they follow the user's own setting.
 */
export const subscriptions = sqliteTable(
  "subscriptions",
  {
    userId: integer("user_id").notNull(),
    channelId: integer("channel_id").notNull(),
    active: integer("active", { mode: "boolean" }).notNull().default(true),
    color: text("color").notNull(),
    pinToTop: integer("pin_to_top", { mode: "boolean" }).notNull().default(false),
    isMuted: integer("is_muted", { mode: "boolean" }).notNull().default(false),
    desktopNotifications: integer("desktop_notifications", { mode: "boolean" }),
    emailNotifications: integer("email_notifications", { mode: "boolean" }),
    pushNotifications: integer("push_notifications", { mode: "boolean" }),
    audibleNotifications: integer("audible_notifications", { mode: "boolean" }),
    wildcardMentionsNotify: integer("wildcard_mentions_notify", { mode: "boolean" }),
    // The last message id of this channel that has user_messages rows for this subscriber: newer ones are
    // written when the subscriber next reads (store/lazy-delivery.ts).
    deliveredThrough: integer("delivered_through").notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.userId, t.channelId] }), index("subscriptions_channel").on(t.channelId, t.active)],
);

export type SubscriptionRow = typeof subscriptions.$inferSelect;
