/** A realm's own URL: the external URL, with the realm's subdomain in front of its host. */
export function realmUrl(externalUrl: string, stringId: string): string {
  if (!stringId) return externalUrl;
  // Built as text: URL's hostname setter silently ignores a name that ends like an IPv4 address.
  const u = new URL(externalUrl);
  return `${u.protocol}//${stringId}.${u.host}${u.pathname}`.replace(/\/+$/, "");
}

/** The organization icon's URL: an administrator's upload (served beside avatars, its version in the
 * query so it can be cached forever), or the default PNG (the mobile app cannot show SVG). */
export function realmIconUrl(realm: { id: number; stringId: string; iconSource: string; iconVersion: number }, externalUrl: string): string {
  if (realm.iconSource === "U") return `${externalUrl}/user_avatars/${realm.id}/realm/icon.png?version=${realm.iconVersion}`;
  return realmUrl(externalUrl, realm.stringId) + STATIC_IMAGES.iconPng;
}

/** The images confab serves itself (src/http/pages/static.ts): the default realm icon and logo, and
 * the stand-in avatar of a user a guest may not see. */
export const STATIC_IMAGES = {
  icon: "/static/images/logo/confab-icon.svg",
  /** What realm_icon_url names: the mobile app cannot show SVG. */
  iconPng: "/static/images/logo/confab-icon.png",
  logo: "/static/images/logo/confab-logo.svg",
  unknownUser: "/static/images/unknown-user-avatar.svg",
  unknownUserPng: "/static/images/unknown-user-avatar.png",
} as const;

/** Where the server_emoji_data_url document lives; the content hash in the name lets it be cached forever. */
export const emojiDataPath = (hash: string) => `/static/generated/emoji/emoji_api.${hash}.json`;
