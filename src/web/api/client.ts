// The one HTTP client of the web app: Zulip's API under /json, authenticated by the session cookie,
// with the CSRF token (read from its cookie at each call: it changes at each sign-in) on unsafe methods.
// Parameters are form-encoded as Zulip clients send them; objects and arrays travel as JSON text.

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    msg: string,
    readonly body: Record<string, unknown> = {},
  ) {
    super(msg);
  }
}

type Params = Record<string, unknown>;

/** Called on any 401: the session is gone (signed out elsewhere, expired, deactivated). */
let onUnauthorized: () => void = () => {};
export const setUnauthorizedHandler = (f: () => void) => (onUnauthorized = f);

export function csrfToken(): string {
  const m = document.cookie.match(/(?:^|;\s*)csrftoken=([^;]*)/);
  return m ? decodeURIComponent(m[1]!) : "";
}

function encode(params: Params): URLSearchParams {
  const form = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) {
    if (v === undefined) continue;
    form.set(k, typeof v === "string" ? v : JSON.stringify(v));
  }
  return form;
}

async function call<T>(method: string, path: string, params: Params | FormData = {}, signal?: AbortSignal): Promise<T> {
  const headers: Record<string, string> = {};
  let url = path.startsWith("/") ? path : `/json/${path}`;
  let body: BodyInit | undefined;
  if (method === "GET") {
    const q = encode(params as Params).toString();
    if (q) url += `?${q}`;
  } else {
    headers["X-CSRFToken"] = csrfToken();
    body = params instanceof FormData ? params : encode(params);
  }
  let res: Response;
  try {
    res = await fetch(url, { method, headers, body, signal, credentials: "same-origin" });
  } catch (e) {
    if ((e as Error).name === "AbortError") throw e;
    throw new ApiError(0, "NETWORK", "Cannot reach the server");
  }
  let data: Record<string, unknown>;
  try {
    data = await res.json();
  } catch {
    throw new ApiError(res.status, "BAD_RESPONSE", `Unexpected answer from the server (${res.status})`);
  }
  if (res.status === 401 && !path.startsWith("/accounts/login")) onUnauthorized();
  if (!res.ok || data.result === "error") {
    throw new ApiError(res.status, String(data.code ?? "ERROR"), String(data.msg ?? res.statusText), data);
  }
  return data as T;
}

export const api = {
  get: <T = any>(path: string, params?: Params, signal?: AbortSignal) => call<T>("GET", path, params, signal),
  post: <T = any>(path: string, params?: Params | FormData) => call<T>("POST", path, params),
  patch: <T = any>(path: string, params?: Params) => call<T>("PATCH", path, params),
  delete: <T = any>(path: string, params?: Params) => call<T>("DELETE", path, params),
};

export const signIn = (username: string, password: string) => call<{ user_id: number; email: string }>("POST", "/accounts/login", { username, password });
export const signOut = () => call("POST", "/accounts/logout");
