/** A PostgreSQL URL as it may be printed or logged: without its password or parameters (the URL is a secret). */
export function describePostgresUrl(url: string): string {
  const u = new URL(url);
  return `postgres://${u.username ? `${decodeURIComponent(u.username)}@` : ""}${u.host}${u.pathname}`;
}
