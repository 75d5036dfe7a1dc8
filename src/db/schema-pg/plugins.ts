// PostgreSQL twin of src/db/schema/plugins.ts (docs/scaling.md, section 10): the same tables, columns, keys and
// indexes in PostgreSQL's types; what each means is said there. test/unit/schema-parity.test.ts keeps them in step.
import { sql } from "drizzle-orm";
import { bigint, bigserial, boolean, index, jsonb, pgTable, primaryKey, text } from "drizzle-orm/pg-core";
import type { Manifest } from "../../domain/plugin-manifest";
import { channels } from "./channels";
import { realms } from "./realms";
import { users } from "./users";
import { repositories } from "./repositories";

export const plugins = pgTable(
  "ext_plugins",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    realmId: bigint("realm_id", { mode: "number" })
      .notNull()
      .references(() => realms.id),
    plugin: text("plugin").notNull(),
    name: text("name").notNull(),
    version: text("version").notNull(),
    sourceKind: text("source_kind").notNull(),
    source: text("source").notNull().default(""),
    sourceRepositoryId: bigint("source_repository_id", { mode: "number" }).references(() => repositories.id),
    sourcePath: text("source_path").notNull().default(""),
    sha: text("sha").notNull().default(""),
    manifest: jsonb("manifest").$type<Manifest>().notNull(),
    state: text("state").notNull(),
    detail: text("detail").notNull().default(""),
    botUserId: bigint("bot_user_id", { mode: "number" })
      .notNull()
      .references(() => users.id),
    installedBy: bigint("installed_by", { mode: "number" }).references(() => users.id),
    madeBy: bigint("made_by", { mode: "number" }).references(() => users.id),
    madeByRunId: bigint("made_by_run_id", { mode: "number" }),
    madeInStreamId: bigint("made_in_stream_id", { mode: "number" }),
    madeInTopic: text("made_in_topic"),
    madeInMessageId: bigint("made_in_message_id", { mode: "number" }),
    settings: jsonb("settings").$type<Record<string, unknown>>().notNull().default(sql`'{}'`),
    disabled: boolean("disabled").notNull().default(false),
    widgetDefaults: jsonb("widget_defaults").$type<Record<string, { nav?: string; column?: boolean }>>().notNull().default(sql`'{}'`),
    disabledTools: jsonb("disabled_tools").$type<string[]>().notNull().default(sql`'[]'`),
    dateInstalled: bigint("date_installed", { mode: "number" }).notNull(),
    dateRemoved: bigint("date_removed", { mode: "number" }),
    revision: bigint("revision", { mode: "number" }).notNull().default(1),
  },
  (t) => [index("ext_plugins_realm").on(t.realmId), index("ext_plugins_bot").on(t.botUserId)],
);

export const pluginSecrets = pgTable(
  "ext_plugin_secrets",
  {
    installId: bigint("install_id", { mode: "number" })
      .notNull()
      .references(() => plugins.id),
    name: text("name").notNull(),
    sealed: text("sealed").notNull(),
    hint: text("hint").notNull(),
    setBy: bigint("set_by", { mode: "number" }).references(() => users.id),
    dateSet: bigint("date_set", { mode: "number" }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.installId, t.name] })],
);

export const pluginLinks = pgTable(
  "ext_plugin_links",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    installId: bigint("install_id", { mode: "number" })
      .notNull()
      .references(() => plugins.id),
    kind: text("kind").notNull(),
    value: text("value").notNull(),
    streamId: bigint("stream_id", { mode: "number" })
      .notNull()
      .references(() => channels.id),
    topic: text("topic"),
  },
  (t) => [index("ext_plugin_links_install").on(t.installId)],
);
