// PostgreSQL twin of src/db/schema/invites.ts (docs/scaling.md, section 10): the same tables, columns, keys and
// indexes in PostgreSQL's types; what each means is said there. test/unit/schema-parity.test.ts keeps them in step.
import { bigint, bigserial, boolean, index, jsonb, pgTable, text, uniqueIndex } from "drizzle-orm/pg-core";
import { realms } from "./realms";
import { users } from "./users";

export const invites = pgTable(
  "invites",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    realmId: bigint("realm_id", { mode: "number" })
      .notNull()
      .references(() => realms.id),
    referredBy: bigint("referred_by", { mode: "number" })
      .notNull()
      .references(() => users.id),
    isMultiuse: boolean("is_multiuse").notNull(),
    email: text("email"),
    key: text("key").notNull(),
    invitedAs: bigint("invited_as", { mode: "number" }).notNull(),
    streamIds: jsonb("stream_ids").$type<number[]>().notNull(),
    groupIds: jsonb("group_ids").$type<number[]>().notNull(),
    includeRealmDefaultSubscriptions: boolean("include_realm_default_subscriptions").notNull(),
    welcomeMessageCustomText: text("welcome_message_custom_text"),
    notifyReferrerOnJoin: boolean("notify_referrer_on_join").notNull().default(false),
    dateCreated: bigint("date_created", { mode: "number" }).notNull(),
    expiresAt: bigint("expires_at", { mode: "number" }),
    status: text("status").notNull().default("active"),
  },
  (t) => [uniqueIndex("invites_key").on(t.key), index("invites_realm").on(t.realmId)],
);
