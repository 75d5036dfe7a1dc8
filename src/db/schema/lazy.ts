// SQLite's tables as the store gets them (db/engine.ts, `tables(db)`), each schema module evaluated
// when one of its tables is first used: building drizzle's 52 tables took 7–9 ms of every start,
// and a start uses a few (realms, exports; the rest as requests come). test/unit/schema-lazy.test.ts
// keeps this list equal to the tables src/db/schema exports.
import type * as Schema from "./index";

const loaders = {
  agentRuns: () => (require("./agent") as typeof import("./agent")).agentRuns,
  alertWords: () => (require("./alert-words") as typeof import("./alert-words")).alertWords,
  attachments: () => (require("./attachments") as typeof import("./attachments")).attachments,
  botServices: () => (require("./bots") as typeof import("./bots")).botServices,
  botStorage: () => (require("./bot-storage") as typeof import("./bot-storage")).botStorage,
  channelFolders: () => (require("./channel-folders") as typeof import("./channel-folders")).channelFolders,
  channels: () => (require("./channels") as typeof import("./channels")).channels,
  clientDevices: () => (require("./devices") as typeof import("./devices")).clientDevices,
  defaultChannels: () => (require("./channels") as typeof import("./channels")).defaultChannels,
  dmMembers: () => (require("./channels") as typeof import("./channels")).dmMembers,
  drafts: () => (require("./drafts") as typeof import("./drafts")).drafts,
  emailOutbox: () => (require("./email") as typeof import("./email")).emailOutbox,
  emailTokens: () => (require("./email") as typeof import("./email")).emailTokens,
  invites: () => (require("./invites") as typeof import("./invites")).invites,
  linkifiers: () => (require("./linkifiers") as typeof import("./linkifiers")).linkifiers,
  messageAttachments: () => (require("./attachments") as typeof import("./attachments")).messageAttachments,
  messages: () => (require("./messages") as typeof import("./messages")).messages,
  missedMessages: () => (require("./email") as typeof import("./email")).missedMessages,
  mutedUsers: () => (require("./muted-users") as typeof import("./muted-users")).mutedUsers,
  navigationViews: () => (require("./navigation-views") as typeof import("./navigation-views")).navigationViews,
  outgoingWebhookCalls: () => (require("./outgoing-webhooks") as typeof import("./outgoing-webhooks")).outgoingWebhookCalls,
  pluginLinks: () => (require("./plugins") as typeof import("./plugins")).pluginLinks,
  pluginSecrets: () => (require("./plugins") as typeof import("./plugins")).pluginSecrets,
  plugins: () => (require("./plugins") as typeof import("./plugins")).plugins,
  presences: () => (require("./presence") as typeof import("./presence")).presences,
  profileFieldValues: () => (require("./profile-fields") as typeof import("./profile-fields")).profileFieldValues,
  profileFields: () => (require("./profile-fields") as typeof import("./profile-fields")).profileFields,
  pushTokens: () => (require("./push-tokens") as typeof import("./push-tokens")).pushTokens,
  reactions: () => (require("./reactions") as typeof import("./reactions")).reactions,
  realmDomains: () => (require("./realm-domains") as typeof import("./realm-domains")).realmDomains,
  realmEmoji: () => (require("./realm-emoji") as typeof import("./realm-emoji")).realmEmoji,
  realmExports: () => (require("./realm-exports") as typeof import("./realm-exports")).realmExports,
  realmPlaygrounds: () => (require("./realm-playgrounds") as typeof import("./realm-playgrounds")).realmPlaygrounds,
  realmUserDefaults: () => (require("./user-settings") as typeof import("./user-settings")).realmUserDefaults,
  realms: () => (require("./realms") as typeof import("./realms")).realms,
  recipients: () => (require("./channels") as typeof import("./channels")).recipients,
  repositories: () => (require("./repositories") as typeof import("./repositories")).repositories,
  savedSnippets: () => (require("./saved-snippets") as typeof import("./saved-snippets")).savedSnippets,
  scheduledMessages: () => (require("./scheduled-messages") as typeof import("./scheduled-messages")).scheduledMessages,
  secrets: () => (require("./secrets") as typeof import("./secrets")).secrets,
  sessions: () => (require("./sessions") as typeof import("./sessions")).sessions,
  submessages: () => (require("./submessages") as typeof import("./submessages")).submessages,
  subscriptions: () => (require("./subscriptions") as typeof import("./subscriptions")).subscriptions,
  userGroupMembers: () => (require("./user-groups") as typeof import("./user-groups")).userGroupMembers,
  userGroupSubgroups: () => (require("./user-groups") as typeof import("./user-groups")).userGroupSubgroups,
  userGroups: () => (require("./user-groups") as typeof import("./user-groups")).userGroups,
  userStatuses: () => (require("./user-status") as typeof import("./user-status")).userStatuses,
  userTopics: () => (require("./topics") as typeof import("./topics")).userTopics,
  users: () => (require("./users") as typeof import("./users")).users,
  widgetDocuments: () => (require("./widgets") as typeof import("./widgets")).widgetDocuments,
  widgetPreferences: () => (require("./widgets") as typeof import("./widgets")).widgetPreferences,
  workspaces: () => (require("./workspaces") as typeof import("./workspaces")).workspaces,
} satisfies { [K in keyof typeof Schema]?: () => (typeof Schema)[K] };

export type SqliteTables = typeof Schema;

/** Every table as a property that loads its module on first read, then holds the table itself. */
export const lazyTables = {} as SqliteTables;
for (const [name, load] of Object.entries(loaders))
  Object.defineProperty(lazyTables, name, {
    configurable: true,
    enumerable: true,
    get() {
      const table = load();
      Object.defineProperty(lazyTables, name, { value: table, enumerable: true });
      return table;
    },
  });
