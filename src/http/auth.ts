import { authenticateApiKey, type ClientIp } from "../actions/auth";
import { authenticateSession } from "../actions/sessions";
import { readCookies, SESSION_COOKIE } from "./session";
import type { App } from "../context";
import type { RealmRow, UserRow } from "../db/schema";
import { badAuthHeader, notBasicAuth, notLoggedIn } from "../domain/errors";

type Credentials = { email: string; apiKey: string };
/** Clients send the same header on every request: decode each one once (bounded: clients choose them). */
const decoded = new Map<string, Credentials>();

/** The `Authorization: Basic base64(email:api_key)` header, or null when there is none. */
export function parseBasic(header: string | null): Credentials | null {
  if (!header) return null;
  const known = decoded.get(header);
  if (known) return known;
  const creds = decodeBasic(header);
  if (decoded.size >= 1000) decoded.clear();
  decoded.set(header, creds);
  return creds;
}

function decodeBasic(header: string): Credentials {
  const [scheme, value] = header.split(" ", 2);
  if (!value) throw badAuthHeader();
  if (scheme!.toLowerCase() !== "basic") throw notBasicAuth();
  const text = Buffer.from(value, "base64").toString("utf8");
  const i = text.indexOf(":");
  if (i < 0) throw badAuthHeader();
  return { email: text.slice(0, i), apiKey: text.slice(i + 1) };
}

export function requestUser(app: App, realm: RealmRow, header: string | null, ip: ClientIp): UserRow | Promise<UserRow> {
  const creds = parseBasic(header);
  if (!creds) throw notLoggedIn();
  return authenticateApiKey(app, realm, creds.email, creds.apiKey, ip);
}

/**
 * Who opens a page outside the API (a file, an avatar, an export): HTTP Basic as API clients send it,
 * else the web client's session cookie (these pages only answer GET, so no CSRF token is needed); null
 * for neither.
 */
export async function pageViewer(app: App, realm: RealmRow, request: Request, ip: ClientIp): Promise<UserRow | null> {
  const header = request.headers.get("authorization");
  if (header) return await requestUser(app, realm, header, ip);
  const token = readCookies(request).get(SESSION_COOKIE);
  return token ? (await authenticateSession(app, realm, token)).user : null;
}
