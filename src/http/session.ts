// The web client's cookies and CSRF check (docs/sessions.md). /json requests are authenticated by the
// session cookie alone, and every unsafe one must repeat the CSRF token in the X-CSRFToken header, as
// Django (and so Zulip) requires: a page on another site can make the browser send the cookie, but it
// can neither read the token nor set that header.
import type { NewSession } from "../actions/sessions";
import type { App } from "../context";
import type { SessionRow } from "../db/schema";
import { csrfFailed } from "../domain/errors";
import { safeEqual } from "../lib/random";
import { inRange, parseRange } from "../lib/addresses";

export const SESSION_COOKIE = "confab_session";
export const CSRF_COOKIE = "csrftoken";
const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

export function readCookies(request: Request): Map<string, string> {
  const out = new Map<string, string>();
  for (const part of (request.headers.get("cookie") ?? "").split(";")) {
    const i = part.indexOf("=");
    if (i > 0) out.set(part.slice(0, i).trim(), decodeURIComponent(part.slice(i + 1).trim()));
  }
  return out;
}

const cookie = (name: string, value: string, maxAge: number, httpOnly: boolean, secure: boolean) =>
  `${name}=${value}; Path=/; Max-Age=${maxAge}; SameSite=Lax${httpOnly ? "; HttpOnly" : ""}${secure ? "; Secure" : ""}`;

/**
 * Whether the browser reached confab over HTTPS, so its cookies must be Secure: external_url says so,
 * confab serves TLS itself (tls.cert), or a proxy listed in trusted_proxies says so in X-Forwarded-Proto
 * (from anyone else that header is ignored).
 */
export function viaHttps(app: App, request: Request, peer: string): boolean {
  if (app.config.externalUrl.startsWith("https:") || app.config.tls.cert) return true;
  const proto = request.headers.get("x-forwarded-proto");
  if (!proto || !app.config.trustedProxies.length) return false;
  const trusted = app.config.trustedProxies.some((r) => {
    const range = parseRange(r);
    return range !== null && inRange(peer, range);
  });
  // A chain of proxies lists one protocol each; the first is what the browser used.
  return trusted && proto.split(",")[0]!.trim().toLowerCase() === "https";
}

/** Adds the cookies of a new session to a response (the session token is readable by no script). */
export function setSessionCookies(res: Response, s: NewSession, secure: boolean): Response {
  res.headers.append("set-cookie", cookie(SESSION_COOKIE, s.token, s.maxAgeSeconds, true, secure));
  res.headers.append("set-cookie", cookie(CSRF_COOKIE, s.csrfToken, s.maxAgeSeconds, false, secure));
  res.headers.set("cache-control", "no-store");
  return res;
}

export function clearSessionCookies(res: Response, secure: boolean): Response {
  res.headers.append("set-cookie", cookie(SESSION_COOKIE, "", 0, true, secure));
  res.headers.append("set-cookie", cookie(CSRF_COOKIE, "", 0, false, secure));
  return res;
}

/**
 * Unsafe methods need X-CSRFToken equal to the csrftoken cookie and to the token issued with the
 * session (a cookie planted from a sibling subdomain does not match the session's).
 */
export function checkCsrf(request: Request, cookies: Map<string, string>, session: SessionRow) {
  if (SAFE_METHODS.has(request.method)) return;
  const cookieToken = cookies.get(CSRF_COOKIE);
  const header = request.headers.get("x-csrftoken");
  if (!cookieToken) throw csrfFailed("CSRF cookie not set.");
  if (!header) throw csrfFailed("CSRF token missing.");
  if (!safeEqual(header, cookieToken) || !safeEqual(header, session.csrfToken)) throw csrfFailed("CSRF token incorrect.");
}

/** Sign-in forms: a browser's Origin header, when sent, must be this server's (no sign-in from other sites). */
export function checkOrigin(request: Request) {
  const origin = request.headers.get("origin");
  if (!origin) return;
  let host: string;
  try {
    host = new URL(origin).host;
  } catch {
    host = "";
  }
  if (host !== request.headers.get("host")) throw csrfFailed(`Origin checking failed - ${origin} does not match any trusted origins.`);
}
