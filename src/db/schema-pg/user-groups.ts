// PostgreSQL twin of src/db/schema/user-groups.ts (docs/scaling.md, section 10): the same tables, columns, keys and
// indexes in PostgreSQL's types; what each means is said there. test/unit/schema-parity.test.ts keeps them in step.
import { sql } from "drizzle-orm";
import { bigint, bigserial, boolean, index, jsonb, pgTable, primaryKey, text, uniqueIndex } from "drizzle-orm/pg-core";
import { realms } from "./realms";
import { users } from "./users";

export const userGroups = pgTable(
  "user_groups",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    realmId: bigint("realm_id", { mode: "number" })
      .notNull()
      .references(() => realms.id),
    name: text("name").notNull(),
    description: text("description").notNull().default(""),
    isSystemGroup: boolean("is_system_group").notNull().default(false),
    deactivated: boolean("deactivated").notNull().default(false),
    dateCreated: bigint("date_created", { mode: "number" }),
    creatorId: bigint("creator_id", { mode: "number" }),
    settings: jsonb("settings").$type<Record<string, unknown>>().notNull().default(sql`'{}'`),
  },
  (t) => [uniqueIndex("user_groups_realm_name").on(t.realmId, t.name)],
);

export const userGroupMembers = pgTable(
  "user_group_members",
  {
    groupId: bigint("group_id", { mode: "number" })
      .notNull()
      .references(() => userGroups.id),
    userId: bigint("user_id", { mode: "number" })
      .notNull()
      .references(() => users.id),
  },
  (t) => [primaryKey({ columns: [t.groupId, t.userId] }), index("user_group_members_user").on(t.userId)],
);

export const userGroupSubgroups = pgTable(
  "user_group_subgroups",
  {
    groupId: bigint("group_id", { mode: "number" })
      .notNull()
      .references(() => userGroups.id),
    subgroupId: bigint("subgroup_id", { mode: "number" })
      .notNull()
      .references(() => userGroups.id),
  },
  (t) => [primaryKey({ columns: [t.groupId, t.subgroupId] }), index("user_group_subgroups_sub").on(t.subgroupId)],
);
