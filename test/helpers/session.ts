// A browser's view of the API: signed in through POST /accounts/login, calling /json/* with the
// session cookie, and the CSRF token on unsafe methods (docs/sessions.md).
import { Client } from "./client";

/** The cookies a Set-Cookie list sets (an empty value: cleared). */
export function cookiesFrom(res: Response): Map<string, { value: string; attrs: string }> {
  const out = new Map<string, { value: string; attrs: string }>();
  for (const line of res.headers.getSetCookie()) {
    const [pair, ...attrs] = line.split(";");
    const i = pair!.indexOf("=");
    out.set(pair!.slice(0, i).trim(), { value: pair!.slice(i + 1).trim(), attrs: attrs.map((a) => a.trim()).join("; ") });
  }
  return out;
}

export class SessionClient extends Client {
  protected override prefix = "/json";
  /** Whether unsafe requests carry X-CSRFToken (a forged request would not). */
  sendCsrf = true;

  constructor(
    base: string,
    readonly session: string,
    readonly csrf: string,
    userId: number,
  ) {
    super(base, null, null, userId);
  }

  get cookieHeader() {
    return `confab_session=${this.session}; csrftoken=${this.csrf}`;
  }

  protected override sessionHeaders(method: string): Record<string, string> {
    const h: Record<string, string> = { Cookie: this.cookieHeader };
    if (this.sendCsrf && !["GET", "HEAD"].includes(method)) h["X-CSRFToken"] = this.csrf;
    return h;
  }
}

/** POST /accounts/login as a browser's fetch would send it; returns the raw answer. */
export const postLogin = (base: string, username: string, password: string, headers: Record<string, string> = {}) =>
  fetch(`${base}/accounts/login`, {
    method: "POST",
    headers: { "Content-Type": "application/x-www-form-urlencoded", ...headers },
    body: new URLSearchParams({ username, password }).toString(),
  });

export async function signIn(base: string, username: string, password: string): Promise<SessionClient> {
  const res = await postLogin(base, username, password);
  const body = (await res.json()) as { user_id: number };
  if (res.status !== 200) throw new Error(`sign-in failed: ${res.status} ${JSON.stringify(body)}`);
  const c = cookiesFrom(res);
  return new SessionClient(base, c.get("confab_session")!.value, c.get("csrftoken")!.value, body.user_id);
}
