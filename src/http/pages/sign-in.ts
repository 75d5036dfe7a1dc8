// The web client's sign-in and sign-out (docs/sessions.md), outside /api/v1 as in Zulip. Both answer
// JSON in Zulip's shape; the session itself travels only in cookies.
import { authenticateSession, signIn, signOut } from "../../actions/sessions";
import { ApiError } from "../../domain/errors";
import { readInput, splitTarget } from "../input";
import { p, readParams } from "../../domain/params";
import { realmForHost } from "../realm";
import { success } from "../respond";
import { checkCsrf, checkOrigin, clearSessionCookies, readCookies, SESSION_COOKIE, setSessionCookies, viaHttps } from "../session";
import type { Page } from "./page";

const LOGIN_PARAMS = { username: p.str(), password: p.str() };

/** POST /accounts/login: `username` (the email) and `password`, as a form or JSON. */
const login: Page["handle"] = async (app, request, _params, ip) => {
  checkOrigin(request);
  const realm = await realmForHost(app, request.headers.get("host"));
  const input = await readInput(request, splitTarget(request.url).query, app.config.limits.maxApiRequestBytes);
  const { args } = readParams(LOGIN_PARAMS, input, {});
  const { user, session } = await signIn(app, realm, args.username, args.password, ip);
  await app.writer.settled();
  return setSessionCookies(success({ user_id: user.id, email: user.email }, []), session, viaHttps(app, request, ip()));
};

/**
 * POST /accounts/logout: ends the session and clears the cookies. A cookie that no longer opens a
 * session is simply cleared; a live one needs the CSRF token, like any unsafe /json request.
 */
const logout: Page["handle"] = async (app, request, _params, ip) => {
  const cookies = readCookies(request);
  const token = cookies.get(SESSION_COOKIE);
  if (token) {
    const realm = await realmForHost(app, request.headers.get("host"));
    let found: Awaited<ReturnType<typeof authenticateSession>> | null = null;
    try {
      found = await authenticateSession(app, realm, token);
    } catch (e) {
      if (!(e instanceof ApiError)) throw e;
    }
    if (found) {
      checkCsrf(request, cookies, found.session);
      await signOut(app, found.session);
      await app.writer.settled();
    }
  }
  return clearSessionCookies(success({}, []), viaHttps(app, request, ip()));
};

export default [
  { method: "POST", path: "/accounts/login", handle: login },
  { method: "POST", path: "/accounts/logout", handle: logout },
] satisfies Page[];
