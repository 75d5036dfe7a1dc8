import { sql } from "drizzle-orm";
import { index, integer, primaryKey, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { realms } from "./realms";
import { users } from "./users";

export const userGroups = sqliteTable(
  "user_groups",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    realmId: integer("realm_id")
      .notNull()
      .references(() => realms.id),
    name: text("name").notNull(),
    description: text("description").notNull().default(""),
    isSystemGroup: integer("is_system_group", { mode: "boolean" }).notNull().default(false),
    deactivated: integer("deactivated", { mode: "boolean" }).notNull().default(false),
    dateCreated: integer("date_created"),
    creatorId: integer("creator_id"),
    // The group's can_*_group settings as group-setting values.
    settings: text("settings", { mode: "json" }).$type<Record<string, unknown>>().notNull().default(sql`'{}'`),
  },
  (t) => [uniqueIndex("user_groups_realm_name").on(t.realmId, t.name)],
);

export const userGroupMembers = sqliteTable(
  "user_group_members",
  {
    groupId: integer("group_id")
      .notNull()
      .references(() => userGroups.id),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id),
  },
  (t) => [primaryKey({ columns: [t.groupId, t.userId] }), index("user_group_members_user").on(t.userId)],
);

export const userGroupSubgroups = sqliteTable(
  "user_group_subgroups",
  {
    groupId: integer("group_id")
      .notNull()
      .references(() => userGroups.id),
    subgroupId: integer("subgroup_id")
      .notNull()
      .references(() => userGroups.id),
  },
  (t) => [primaryKey({ columns: [t.groupId, t.subgroupId] }), index("user_group_subgroups_sub").on(t.subgroupId)],
);

export type UserGroupRow = typeof userGroups.$inferSelect;
