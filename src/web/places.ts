// Where each administration and extension endpoint lives in the app, and how many clicks it takes to
// get there from the main view (the feed with its sidebar and header). test/unit/web-places.test.ts
// reads the server's route table and fails when such an endpoint has no place here, when a place is
// more than three clicks away, or when the named file does not call the endpoint.

export interface Place {
  /** The way there, as a person clicks it. */
  where: string;
  /** Clicks from the main view to the control (not counting the control itself). */
  clicks: number;
  /** The file under src/web that calls the endpoint. */
  file: string;
  /** What the file reads instead of calling the endpoint, for a read that register and its events keep current. */
  via?: string;
}

/** An endpoint no person calls: the caller is a program (a plugin's bot, the agent's run). */
export interface NotAPlace {
  caller: string;
}

const ORG = "User menu → Organization settings";
const EXT = "User menu → Plugins, secrets and agent";
const TOPIC = "A channel in the sidebar → a topic";

export const PLACES: Record<string, Place | NotAPlace> = {
  // Organization settings.
  "PATCH /realm": { where: `${ORG} → Organization profile, Permissions and sign-up, or Messages`, clicks: 3, file: "views/admin/fields.tsx" },
  "POST /realm/icon": { where: `${ORG} (Organization profile) → Upload icon`, clicks: 2, file: "views/admin/RealmSettings.tsx" },
  "DELETE /realm/icon": { where: `${ORG} (Organization profile) → Use the default icon`, clicks: 2, file: "views/admin/RealmSettings.tsx" },
  "POST /realm/test_welcome_bot_custom_message": { where: `${ORG} (Organization profile)`, clicks: 2, file: "views/admin/RealmSettings.tsx" },
  "GET /export/realm": { where: `${ORG} (Organization profile) → Export the organization's data`, clicks: 2, file: "views/admin/RealmSettings.tsx" },
  "POST /export/realm": { where: `${ORG} (Organization profile) → Export the organization's data`, clicks: 2, file: "views/admin/RealmSettings.tsx" },
  "GET /export/realm/consents": { where: `${ORG} (Organization profile) → Export the organization's data`, clicks: 2, file: "views/admin/RealmSettings.tsx" },
  "POST /realm/domains": { where: `${ORG} → Permissions and sign-up → Allowed email domains`, clicks: 3, file: "views/admin/RealmSettings.tsx" },
  "PATCH /realm/domains/{domain}": { where: `${ORG} → Permissions and sign-up → Allowed email domains`, clicks: 3, file: "views/admin/RealmSettings.tsx" },
  "DELETE /realm/domains/{domain}": { where: `${ORG} → Permissions and sign-up → Allowed email domains`, clicks: 3, file: "views/admin/RealmSettings.tsx" },
  "PATCH /realm/user_settings_defaults": { where: `${ORG} → Defaults for new users`, clicks: 3, file: "views/admin/RealmSettings.tsx" },
  "POST /users": { where: `${ORG} → Users → Add a user`, clicks: 3, file: "views/admin/People.tsx" },
  "PATCH /users/{user_id}": {
    where: `${ORG} → Users (name, role); a message's sender → Edit profile fields`,
    clicks: 3,
    file: "views/admin/People.tsx",
  },
  "DELETE /users/{user_id}": { where: `${ORG} → Users → Deactivate`, clicks: 3, file: "views/admin/People.tsx" },
  "POST /users/{user_id}/reactivate": { where: `${ORG} → Users → Reactivate`, clicks: 3, file: "views/admin/People.tsx" },
  "POST /users/{user_id}/status": { where: "A message's sender → Set status", clicks: 1, file: "views/ProfileCard.tsx" },
  "POST /bots": { where: `${ORG} → Bots → Create a bot`, clicks: 3, file: "views/admin/People.tsx" },
  "PATCH /bots/{bot_id}": { where: `${ORG} → Bots`, clicks: 3, file: "views/admin/People.tsx" },
  "DELETE /bots/{bot_id}": { where: `${ORG} → Bots → Deactivate`, clicks: 3, file: "views/admin/People.tsx" },
  "POST /bots/{bot_id}/api_key/regenerate": { where: `${ORG} → Bots → Regenerate key`, clicks: 3, file: "views/admin/People.tsx" },
  "GET /invites": { where: `${ORG} → Invitations`, clicks: 3, file: "views/admin/People.tsx" },
  "POST /invites": { where: `${ORG} → Invitations → Emails`, clicks: 3, file: "views/admin/People.tsx" },
  "POST /invites/multiuse": { where: `${ORG} → Invitations (or User menu → Invite users)`, clicks: 3, file: "views/admin/People.tsx" },
  "DELETE /invites/{invite_id}": { where: `${ORG} → Invitations → Revoke`, clicks: 3, file: "views/admin/People.tsx" },
  "DELETE /invites/multiuse/{invite_id}": { where: `${ORG} → Invitations → Revoke`, clicks: 3, file: "views/admin/People.tsx" },
  "POST /invites/{invite_id}/resend": { where: `${ORG} → Invitations → Resend`, clicks: 3, file: "views/admin/People.tsx" },
  "POST /user_groups/create": { where: `${ORG} → User groups`, clicks: 3, file: "views/admin/Groups.tsx" },
  "PATCH /user_groups/{user_group_id}": { where: `${ORG} → User groups`, clicks: 3, file: "views/admin/Groups.tsx" },
  "POST /user_groups/{user_group_id}/deactivate": { where: `${ORG} → User groups`, clicks: 3, file: "views/admin/Groups.tsx" },
  "POST /user_groups/{user_group_id}/members": { where: `${ORG} → User groups`, clicks: 3, file: "views/admin/Groups.tsx" },
  "POST /user_groups/{user_group_id}/subgroups": { where: `${ORG} → User groups`, clicks: 3, file: "views/admin/Groups.tsx" },
  "POST /channels/create": { where: `${ORG} → Channels and folders → Create a channel`, clicks: 3, file: "views/admin/Channels.tsx" },
  "PATCH /streams/{stream_id}": { where: "A channel in the sidebar → Channel settings", clicks: 2, file: "views/admin/Channels.tsx" },
  "DELETE /streams/{stream_id}": { where: "A channel in the sidebar → Channel settings → Archive", clicks: 2, file: "views/admin/Channels.tsx" },
  "POST /streams/{stream_id}/delete_topic": { where: `${TOPIC} → Delete topic`, clicks: 2, file: "views/MessageView.tsx" },
  "POST /default_streams": { where: `${ORG} → Channels and folders`, clicks: 3, file: "views/admin/Channels.tsx" },
  "DELETE /default_streams": { where: `${ORG} → Channels and folders`, clicks: 3, file: "views/admin/Channels.tsx" },
  "POST /channel_folders/create": { where: `${ORG} → Channels and folders → Channel folders`, clicks: 3, file: "views/admin/Channels.tsx" },
  "PATCH /channel_folders": { where: `${ORG} → Channels and folders → Channel folders (order)`, clicks: 3, file: "views/admin/Channels.tsx" },
  "PATCH /channel_folders/{channel_folder_id}": { where: `${ORG} → Channels and folders → Channel folders`, clicks: 3, file: "views/admin/Channels.tsx" },
  "POST /realm/emoji/{emoji_name}": { where: `${ORG} → Custom emoji → Add an emoji`, clicks: 3, file: "views/admin/Customization.tsx" },
  "DELETE /realm/emoji/{emoji_name}": { where: `${ORG} → Custom emoji → Remove`, clicks: 3, file: "views/admin/Customization.tsx" },
  "POST /realm/filters": { where: `${ORG} → Linkifiers`, clicks: 3, file: "views/admin/Customization.tsx" },
  "PATCH /realm/filters/{filter_id}": { where: `${ORG} → Linkifiers`, clicks: 3, file: "views/admin/Customization.tsx" },
  "DELETE /realm/filters/{filter_id}": { where: `${ORG} → Linkifiers`, clicks: 3, file: "views/admin/Customization.tsx" },
  "PATCH /realm/linkifiers": { where: `${ORG} → Linkifiers (order)`, clicks: 3, file: "views/admin/Customization.tsx" },
  "POST /realm/playgrounds": { where: `${ORG} → Linkifiers → Code playgrounds`, clicks: 3, file: "views/admin/Customization.tsx" },
  "DELETE /realm/playgrounds/{playground_id}": { where: `${ORG} → Linkifiers → Code playgrounds`, clicks: 3, file: "views/admin/Customization.tsx" },
  "POST /realm/profile_fields": { where: `${ORG} → Profile fields → Add a field`, clicks: 3, file: "views/admin/Customization.tsx" },
  "PATCH /realm/profile_fields": { where: `${ORG} → Profile fields (order)`, clicks: 3, file: "views/admin/Customization.tsx" },
  "PATCH /realm/profile_fields/{field_id}": { where: `${ORG} → Profile fields`, clicks: 3, file: "views/admin/Customization.tsx" },
  "DELETE /realm/profile_fields/{field_id}": { where: `${ORG} → Profile fields → Remove`, clicks: 3, file: "views/admin/Customization.tsx" },

  // The extension layer.
  "GET /ext/plugins": { where: `${EXT} (Plugins)`, clicks: 2, file: "store/ext.ts", via: "ext_plugins" },
  "GET /ext/plugins/{install_id}": { where: `${EXT} → a plugin`, clicks: 3, file: "views/ext/Plugins.tsx", via: "extPlugins" },
  "POST /ext/plugins": { where: `${EXT} → Install a plugin`, clicks: 2, file: "views/ext/Plugins.tsx" },
  "PATCH /ext/plugins/{install_id}": { where: `${EXT} → a plugin (settings, on and off, tools)`, clicks: 3, file: "views/ext/PluginSettings.tsx" },
  "DELETE /ext/plugins/{install_id}": { where: `${EXT} → a plugin → Remove`, clicks: 3, file: "views/ext/PluginSettings.tsx" },
  "POST /ext/plugins/{install_id}/install": { where: `${EXT} → a draft's Install`, clicks: 2, file: "views/ext/Plugins.tsx" },
  "POST /ext/plugins/{install_id}/restore": { where: `${EXT} → a removed plugin's Restore`, clicks: 2, file: "views/ext/Plugins.tsx" },
  "POST /ext/plugins/{install_id}/secrets/{name}": { where: `${EXT} → a plugin → Secrets`, clicks: 3, file: "views/ext/PluginSettings.tsx" },
  "DELETE /ext/plugins/{install_id}/secrets/{name}": { where: `${EXT} → a plugin → Secrets`, clicks: 3, file: "views/ext/PluginSettings.tsx" },
  "POST /ext/plugins/{install_id}/links": { where: `${EXT} → a plugin → Linked channels and topics`, clicks: 3, file: "views/ext/PluginSettings.tsx" },
  "DELETE /ext/plugins/{install_id}/links/{link_id}": {
    where: `${EXT} → a plugin → Linked channels and topics`,
    clicks: 3,
    file: "views/ext/PluginSettings.tsx",
  },
  "GET /ext/plugins/{install_id}/logs": { where: `${EXT} → a plugin → Show log`, clicks: 3, file: "views/ext/PluginSettings.tsx" },
  "GET /ext/repositories": { where: `${EXT} → Install a plugin (from a repository)`, clicks: 2, file: "views/ext/Plugins.tsx" },
  "POST /ext/repositories": { where: `${EXT} → Repositories on this server`, clicks: 2, file: "views/ext/Plugins.tsx" },
  "GET /ext/repositories/{repository_id}": { where: `${EXT} → Install a plugin (a repository's commits)`, clicks: 2, file: "views/ext/Plugins.tsx" },
  "GET /ext/secrets": { where: `${EXT} → Organization secrets`, clicks: 3, file: "store/ext.ts", via: "ext_secrets" },
  "POST /ext/secrets": { where: `${EXT} → Organization secrets → Add secret`, clicks: 3, file: "views/ext/Secrets.tsx" },
  "PATCH /ext/secrets/{name}": { where: `${EXT} → Organization secrets → Change`, clicks: 3, file: "views/ext/Secrets.tsx" },
  "DELETE /ext/secrets/{name}": { where: `${EXT} → Organization secrets → Delete`, clicks: 3, file: "views/ext/Secrets.tsx" },
  "GET /ext/widgets/{install_id}/{widget}": { where: "A widget in the sidebar (or a row of its list)", clicks: 1, file: "views/ext/WidgetPage.tsx" },
  "PATCH /ext/widgets/{install_id}/{widget}/preference": {
    where: "A widget in the sidebar → Your view of this widget",
    clicks: 2,
    file: "views/ext/widgets.ts",
  },
  "POST /ext/widgets": { caller: "a plugin's bot, pushing its widget documents" },
  "GET /ext/agent": { where: `${EXT} → Agent runs`, clicks: 3, file: "views/ext/Runs.tsx" },
  "GET /ext/agent/runs": { where: `${EXT} → Agent runs`, clicks: 3, file: "views/ext/Runs.tsx" },
  "GET /ext/agent/runs/{run_id}": { where: `${TOPIC} (its runs, kept by ext_agent_run events)`, clicks: 2, file: "views/ext/TopicExt.tsx", via: "extRuns" },
  "POST /ext/agent/runs/{run_id}/cancel": { where: `${TOPIC} → a running run's Cancel`, clicks: 2, file: "views/ext/TopicExt.tsx" },
  "POST /ext/agent/plugins": { caller: "the agent during a run, drafting a plugin (its person installs or discards it on the Plugins page)" },
  "GET /ext/agent/tools": { caller: "the agent's runtime, listing the tools a run may call" },
  "POST /ext/agent/tools/{install_id}/{tool}": { caller: "the agent's runtime, calling a plugin's tool" },
  "GET /ext/workspaces": { where: TOPIC, clicks: 2, file: "views/ext/TopicExt.tsx" },
  "GET /ext/workspaces/{workspace_uuid}": { where: TOPIC, clicks: 2, file: "views/ext/TopicExt.tsx", via: 'api.get("ext/workspaces"' },
  "POST /ext/workspaces": { where: `${TOPIC} → Add a workspace`, clicks: 2, file: "views/ext/TopicExt.tsx" },
  "DELETE /ext/workspaces/{workspace_uuid}": { where: `${TOPIC} → Remove workspace`, clicks: 2, file: "views/ext/TopicExt.tsx" },
  "POST /ext/workspaces/{workspace_uuid}/readme": { where: `${TOPIC} → README`, clicks: 2, file: "views/ext/Readme.tsx" },
  "PATCH /ext/workspaces/{workspace_uuid}/readme": { where: `${TOPIC} → README`, clicks: 2, file: "views/ext/Readme.tsx" },
  "DELETE /ext/workspaces/{workspace_uuid}/readme": { where: `${TOPIC} → Close README`, clicks: 2, file: "views/ext/Readme.tsx" },
};
