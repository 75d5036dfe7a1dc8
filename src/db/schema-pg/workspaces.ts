// PostgreSQL twin of src/db/schema/workspaces.ts (docs/scaling.md, section 10): the same tables, columns, keys and
// indexes in PostgreSQL's types; what each means is said there. test/unit/schema-parity.test.ts keeps them in step.
import { bigint, bigserial, pgTable, text, uniqueIndex } from "drizzle-orm/pg-core";
import { channels, nocaseText } from "./channels";
import { realms } from "./realms";
import { repositories } from "./repositories";
import { users } from "./users";

export const workspaces = pgTable(
  "ext_workspaces",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    uuid: text("uuid").notNull().unique(),
    realmId: bigint("realm_id", { mode: "number" })
      .notNull()
      .references(() => realms.id),
    repositoryId: bigint("repository_id", { mode: "number" })
      .notNull()
      .references(() => repositories.id),
    channelId: bigint("channel_id", { mode: "number" })
      .notNull()
      .references(() => channels.id),
    topic: nocaseText("topic").notNull(),
    branch: text("branch").notNull(),
    createdBy: bigint("created_by", { mode: "number" }).references(() => users.id),
    dateCreated: bigint("date_created", { mode: "number" }).notNull(),
  },
  (t) => [uniqueIndex("ext_workspaces_topic").on(t.channelId, t.topic)],
);
