// PostgreSQL twin of src/db/schema/subscriptions.ts (docs/scaling.md, section 10): the same tables, columns, keys and
// indexes in PostgreSQL's types; what each means is said there. test/unit/schema-parity.test.ts keeps them in step.
import { bigint, boolean, index, pgTable, primaryKey, text } from "drizzle-orm/pg-core";

export const subscriptions = pgTable(
  "subscriptions",
  {
    userId: bigint("user_id", { mode: "number" }).notNull(),
    channelId: bigint("channel_id", { mode: "number" }).notNull(),
    active: boolean("active").notNull().default(true),
    color: text("color").notNull(),
    pinToTop: boolean("pin_to_top").notNull().default(false),
    isMuted: boolean("is_muted").notNull().default(false),
    desktopNotifications: boolean("desktop_notifications"),
    emailNotifications: boolean("email_notifications"),
    pushNotifications: boolean("push_notifications"),
    audibleNotifications: boolean("audible_notifications"),
    wildcardMentionsNotify: boolean("wildcard_mentions_notify"),
    deliveredThrough: bigint("delivered_through", { mode: "number" }).notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.userId, t.channelId] }), index("subscriptions_channel").on(t.channelId, t.active)],
);
