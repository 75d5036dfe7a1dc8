// Every endpoint, from one list: the server routes from it, answers 405s from it, and a test compares
// each declaration with the matching operation in Zulip's OpenAPI file.
import type { Endpoint } from "../endpoint";
import auth from "./auth";
import events from "./events";
import linkifiers from "./linkifiers";
import realmEmoji from "./realm-emoji";
import presence from "./presence";
import typing from "./typing";
import server from "./server";
import users from "./users";
import userGroups from "./user-groups";
import realmSettings from "./realm-settings";
import realmDomains from "./realm-domains";
import realmExports from "./realm-exports";
import realmIcon from "./realm-icon";
import userSettings from "./user-settings";
import userStatus from "./user-status";
import alertWords from "./alert-words";
import mutedUsers from "./muted-users";
import profileFields from "./profile-fields";
import drafts from "./drafts";
import savedSnippets from "./saved-snippets";
import navigationViews from "./navigation-views";
import invites from "./invites";
import bots from "./bots";
import devices from "./devices";
import avatars from "./avatars";
import channels from "./channels";
import channelFolders from "./channel-folders";
import subscriptions from "./subscriptions";
import messages from "./messages";
import messageFlags from "./message-flags";
import secrets from "./secrets";
import agent from "./agent";
import workspaces from "./workspaces";
import readme from "./readme";
import repositories from "./repositories";
import plugins from "./plugins";
import widgets from "./widgets";
import attachments from "./attachments";
import scheduledMessages from "./scheduled-messages";
import submessages from "./submessages";
import realmPlaygrounds from "./realm-playgrounds";
import messageReports from "./message-reports";
import welcome from "./welcome";
import push from "./push";
import calls from "./calls";
import botStorage from "./bot-storage";

// One line per area, so engineers adding areas do not collide.
export const routes: Endpoint[] = [
  ...server,
  ...auth,
  ...users,
  ...userGroups,
  ...realmSettings,
  ...realmDomains,
  ...realmExports,
  ...realmIcon,
  ...userSettings,
  ...userStatus,
  ...alertWords,
  ...mutedUsers,
  ...profileFields,
  ...drafts,
  ...savedSnippets,
  ...navigationViews,
  ...invites,
  ...bots,
  ...devices,
  ...avatars,
  ...events,
  ...presence,
  ...typing,
  ...linkifiers,
  ...realmEmoji,
  ...channels,
  ...channelFolders,
  ...subscriptions,
  ...messages,
  ...messageFlags,
  ...secrets,
  ...agent,
  ...workspaces,
  ...readme,
  ...repositories,
  ...plugins,
  ...widgets,
  ...attachments,
  ...scheduledMessages,
  ...submessages,
  ...realmPlaygrounds,
  ...messageReports,
  ...welcome,
  ...push,
  ...calls,
  ...botStorage,
];
