import type { App } from "../context";
import type { RealmRow } from "../db/schema";
import { spectatorsAllowed } from "../domain/realm-access";
import { realmIconUrl, realmUrl } from "../domain/realms";
import { listChannels } from "../store/channels";
import { renderPlain } from "./render";
import { versionFields } from "../version";

/** GET /server_settings: what a client needs before it logs in. */
export async function serverSettings(app: App, realm: RealmRow) {
  const url = realmUrl(app.config.externalUrl, realm.stringId);
  return {
    authentication_methods: {
      password: true,
      dev: app.config.development,
      email: true,
      ldap: false,
      remoteuser: false,
      github: false,
      azuread: false,
      gitlab: false,
      apple: false,
      google: false,
      saml: false,
      "openid connect": false,
    },
    external_authentication_methods: [],
    ...versionFields(),
    push_notifications_enabled: false,
    is_incompatible: false,
    email_auth_enabled: true,
    require_email_format_usernames: true,
    realm_uri: url,
    realm_url: url,
    realm_name: realm.name,
    realm_icon: realmIconUrl(realm, app.config.externalUrl),
    realm_description: await renderPlain(app, realm, realm.description),
    // Web-public channels are on and at least one exists (level 116).
    realm_web_public_access_enabled: spectatorsAllowed(realm) && (await listChannels(app.db, realm.id)).some((c) => c.isWebPublic && !c.isArchived),
  };
}
