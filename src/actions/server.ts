import type { App } from "../app";
import type { RealmRow } from "../db/schema";
import { realmUrl } from "../domain/realms";
import { versionFields } from "../version";

/** GET /server_settings: what a client needs before it logs in. */
export function serverSettings(app: App, realm: RealmRow) {
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
    realm_icon: `${url}/static/images/logo/confab-icon.svg`,
    realm_description: descriptionHtml(realm.description),
    realm_web_public_access_enabled: false,
  };
}

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
// Replaced by the Markdown renderer once it lands in src/render.
const descriptionHtml = (d: string) => (d ? `<p>${escapeHtml(d)}</p>` : "");
