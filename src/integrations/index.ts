// Every incoming-webhook integration, by its URL name. Adding one is a module and a line here.
import { alertmanager } from "./alertmanager";
import { bitbucket2 } from "./bitbucket2";
import { circleci } from "./circleci";
import { gitea } from "./gitea";
import { github } from "./github";
import { gitlab } from "./gitlab";
import { gogs } from "./gogs";
import { grafana } from "./grafana";
import { homeassistant } from "./homeassistant";
import { ifttt } from "./ifttt";
import { jira } from "./jira";
import { json } from "./json";
import { lidarr } from "./lidarr";
import { radarr } from "./radarr";
import { sentry } from "./sentry";
import { slackIncoming } from "./slack-incoming";
import { sonarr } from "./sonarr";
import type { Integration } from "./types";
import { uptimerobot } from "./uptimerobot";

export const INTEGRATIONS: readonly Integration[] = [
  json,
  slackIncoming,
  github,
  gitlab,
  gitea,
  gogs,
  bitbucket2,
  grafana,
  alertmanager,
  uptimerobot,
  homeassistant,
  sonarr,
  radarr,
  lidarr,
  sentry,
  ifttt,
  jira,
  circleci,
];

const byName = new Map(INTEGRATIONS.map((i) => [i.name, i]));
export const findIntegration = (name: string): Integration | undefined => byName.get(name);

/** The URL a service is given, before the bot's key and the channel are filled in. */
export const urlTemplate = (externalUrl: string, i: Integration) => `${externalUrl}/api/v1/external/${i.name}?api_key={api_key}&stream={channel}&topic={topic}`;

/** register's realm_incoming_webhook_bots entries (Zulip's shape, for the bot page's URL builder). */
export const toApiIntegration = (i: Integration) => ({
  name: i.name,
  display_name: i.displayName,
  all_event_types: i.eventTypes ? [...i.eventTypes] : null,
  config_options: [],
  url_options: [...(i.urlOptions ?? [])],
});
