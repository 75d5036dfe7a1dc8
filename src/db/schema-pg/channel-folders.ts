// PostgreSQL twin of src/db/schema/channel-folders.ts (docs/scaling.md, section 10): the same tables, columns, keys and
// indexes in PostgreSQL's types; what each means is said there. test/unit/schema-parity.test.ts keeps them in step.
import { bigint, bigserial, boolean, index, pgTable, text } from "drizzle-orm/pg-core";
import { nocaseText } from "./channels";
import { realms } from "./realms";

export const channelFolders = pgTable(
  "channel_folders",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    realmId: bigint("realm_id", { mode: "number" })
      .notNull()
      .references(() => realms.id),
    name: nocaseText("name").notNull(),
    description: text("description").notNull().default(""),
    renderedDescription: text("rendered_description").notNull().default(""),
    order: bigint("order", { mode: "number" }).notNull().default(0),
    creatorId: bigint("creator_id", { mode: "number" }),
    dateCreated: bigint("date_created", { mode: "number" }).notNull(),
    isArchived: boolean("is_archived").notNull().default(false),
  },
  (t) => [index("channel_folders_realm").on(t.realmId)],
);
