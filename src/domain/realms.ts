/** A realm's own URL: the external URL, with the realm's subdomain in front of its host. */
export function realmUrl(externalUrl: string, stringId: string): string {
  if (!stringId) return externalUrl;
  const u = new URL(externalUrl);
  u.hostname = `${stringId}.${u.hostname}`;
  return u.toString().replace(/\/+$/, "");
}
