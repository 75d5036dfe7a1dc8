import { integer, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { channels, nocaseText } from "./channels";
import { realms } from "./realms";
import { repositories } from "./repositories";
import { users } from "./users";

// Topic workspaces (docs/extensions.md, "Workspaces and the README"): a git worktree of a repository
// kept by this server, at <data_dir>/workspaces/<uuid>, on a branch of its own. One per topic.
export const workspaces = sqliteTable(
  "ext_workspaces",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    uuid: text("uuid").notNull().unique(),
    realmId: integer("realm_id")
      .notNull()
      .references(() => realms.id),
    repositoryId: integer("repository_id")
      .notNull()
      .references(() => repositories.id),
    channelId: integer("channel_id")
      .notNull()
      .references(() => channels.id),
    topic: nocaseText("topic").notNull(), // compared like message topics
    branch: text("branch").notNull(),
    createdBy: integer("created_by").references(() => users.id),
    dateCreated: integer("date_created").notNull(),
  },
  (t) => [uniqueIndex("ext_workspaces_topic").on(t.channelId, t.topic)],
);

export type WorkspaceRow = typeof workspaces.$inferSelect;
