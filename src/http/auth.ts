import { authenticateApiKey, type ClientIp } from "../actions/auth";
import type { App } from "../app";
import type { RealmRow, UserRow } from "../db/schema";
import { badAuthHeader, notBasicAuth, notLoggedIn } from "../domain/errors";

/** The `Authorization: Basic base64(email:api_key)` header, or null when there is none. */
export function parseBasic(header: string | null): { email: string; apiKey: string } | null {
  if (!header) return null;
  const [scheme, value] = header.split(" ", 2);
  if (!value) throw badAuthHeader();
  if (scheme!.toLowerCase() !== "basic") throw notBasicAuth();
  const decoded = Buffer.from(value, "base64").toString("utf8");
  const i = decoded.indexOf(":");
  if (i < 0) throw badAuthHeader();
  return { email: decoded.slice(0, i), apiKey: decoded.slice(i + 1) };
}

export function requestUser(app: App, realm: RealmRow, header: string | null, ip: ClientIp): UserRow {
  const creds = parseBasic(header);
  if (!creds) throw notLoggedIn();
  return authenticateApiKey(app, realm, creds.email, creds.apiKey, ip);
}
