import { sql } from "drizzle-orm";
import { index, integer, primaryKey, sqliteTable, text } from "drizzle-orm/sqlite-core";
import type { Manifest } from "../../domain/plugin-manifest";
import { channels } from "./channels";
import { realms } from "./realms";
import { users } from "./users";
import { repositories } from "./repositories";

// Plugin installs (contract: "Plugin install"). The manifest is the one read at the pinned commit.
export const plugins = sqliteTable(
  "ext_plugins",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    realmId: integer("realm_id")
      .notNull()
      .references(() => realms.id),
    plugin: text("plugin").notNull(),
    name: text("name").notNull(),
    version: text("version").notNull(),
    sourceKind: text("source_kind").notNull(), // codehost, local, remote
    source: text("source").notNull().default(""),
    sourceRepositoryId: integer("source_repository_id").references(() => repositories.id),
    sourcePath: text("source_path").notNull().default(""),
    sha: text("sha").notNull().default(""),
    manifest: text("manifest", { mode: "json" }).$type<Manifest>().notNull(),
    state: text("state").notNull(),
    detail: text("detail").notNull().default(""),
    botUserId: integer("bot_user_id")
      .notNull()
      .references(() => users.id),
    installedBy: integer("installed_by").references(() => users.id),
    madeBy: integer("made_by").references(() => users.id),
    madeByRunId: integer("made_by_run_id"),
    madeInStreamId: integer("made_in_stream_id"),
    madeInTopic: text("made_in_topic"),
    madeInMessageId: integer("made_in_message_id"),
    // Only the values given; the manifest's defaults fill in the rest when shown.
    settings: text("settings", { mode: "json" }).$type<Record<string, unknown>>().notNull().default(sql`'{}'`),
    disabled: integer("disabled", { mode: "boolean" }).notNull().default(false),
    widgetDefaults: text("widget_defaults", { mode: "json" }).$type<Record<string, { nav?: string; column?: boolean }>>().notNull().default(sql`'{}'`),
    disabledTools: text("disabled_tools", { mode: "json" }).$type<string[]>().notNull().default(sql`'[]'`),
    dateInstalled: integer("date_installed").notNull(),
    dateRemoved: integer("date_removed"),
    // Bumped by every change to what the process is given (settings, secrets, enabling, restoring):
    // the supervisor restarts a process whose revision is behind.
    revision: integer("revision").notNull().default(1),
  },
  (t) => [index("ext_plugins_realm").on(t.realmId), index("ext_plugins_bot").on(t.botUserId)],
);

export type PluginRow = typeof plugins.$inferSelect;

// The values of a plugin's secret slots, sealed like organization secrets.
export const pluginSecrets = sqliteTable(
  "ext_plugin_secrets",
  {
    installId: integer("install_id")
      .notNull()
      .references(() => plugins.id),
    name: text("name").notNull(),
    sealed: text("sealed").notNull(),
    hint: text("hint").notNull(),
    setBy: integer("set_by").references(() => users.id),
    dateSet: integer("date_set").notNull(),
  },
  (t) => [primaryKey({ columns: [t.installId, t.name] })],
);

export type PluginSecretRow = typeof pluginSecrets.$inferSelect;

// A plugin's links to a channel, or to a channel and topic (topic null: the whole channel).
export const pluginLinks = sqliteTable(
  "ext_plugin_links",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    installId: integer("install_id")
      .notNull()
      .references(() => plugins.id),
    kind: text("kind").notNull(),
    value: text("value").notNull(),
    streamId: integer("stream_id")
      .notNull()
      .references(() => channels.id),
    topic: text("topic"),
  },
  (t) => [index("ext_plugin_links_install").on(t.installId)],
);

export type PluginLinkRow = typeof pluginLinks.$inferSelect;
