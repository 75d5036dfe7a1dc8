import { expect } from "bun:test";
import { validateResponse } from "./openapi";

export type Params = Record<string, unknown>;
export type Body = Record<string, any> & { readonly $status: number; readonly $headers: Headers };

/** Zulip clients form-encode: strings as they are, everything else as JSON text. */
export function formEncode(params: Params): URLSearchParams {
  const f = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v !== undefined) f.set(k, typeof v === "string" ? v : JSON.stringify(v));
  return f;
}

export interface CallOptions {
  /** Send the parameters as a JSON body instead of a form. */
  json?: boolean;
  headers?: Record<string, string>;
  /** Skip the OpenAPI check (for deliberately odd requests whose answer Zulip's file does not describe). */
  unchecked?: boolean;
  /** Send a multipart body with these files (and the parameters as fields), like an upload. */
  files?: File[];
}

/** An HTTP client for one user (or none) that checks every answer against Zulip's OpenAPI file. */
export class Client {
  constructor(
    readonly base: string,
    readonly email: string | null,
    readonly apiKey: string | null,
    readonly userId: number | null = null,
  ) {}

  get auth(): string | null {
    return this.email === null ? null : "Basic " + Buffer.from(`${this.email}:${this.apiKey}`).toString("base64");
  }

  /** Where the route table is reached: /api/v1 here, /json for a browser session (helpers/session.ts). */
  protected prefix = "/api/v1";
  /** Headers every request of this client carries (the session's cookies and CSRF token). */
  protected sessionHeaders(_method: string): Record<string, string> {
    return {};
  }

  async call(method: string, path: string, params: Params = {}, o: CallOptions = {}): Promise<Body> {
    const headers: Record<string, string> = { ...this.sessionHeaders(method), ...o.headers };
    if (this.auth && !("Authorization" in headers)) headers.Authorization = this.auth;
    let url = `${this.base}${this.prefix}${path}`;
    let body: string | FormData | undefined;
    if (method === "GET") {
      const q = formEncode(params).toString();
      if (q) url += "?" + q;
    } else if (o.files) {
      const form = new FormData();
      for (const [k, v] of formEncode(params)) form.append(k, v);
      o.files.forEach((f, i) => form.append(`file-${i}`, f));
      body = form;
    } else if (o.json) {
      headers["Content-Type"] = "application/json";
      body = JSON.stringify(params);
    } else {
      headers["Content-Type"] = "application/x-www-form-urlencoded";
      body = formEncode(params).toString();
    }
    const res = await fetch(url, { method, headers, body });
    const text = await res.text();
    let json: Record<string, unknown>;
    try {
      json = JSON.parse(text);
    } catch {
      throw new Error(`${method} ${path}: ${res.status} answer is not JSON: ${text.slice(0, 200)}`);
    }
    if (!o.unchecked) {
      const errors = validateResponse(method, path.split("?")[0]!, res.status, json);
      if (errors.length)
        throw new Error(`${method} ${path} (${res.status}) does not match Zulip's OpenAPI schema:\n  ${errors.join("\n  ")}\n${text.slice(0, 500)}`);
    }
    Object.defineProperty(json, "$status", { value: res.status });
    Object.defineProperty(json, "$headers", { value: res.headers });
    return json as Body;
  }

  get = (path: string, params?: Params, o?: CallOptions) => this.call("GET", path, params, o);
  post = (path: string, params?: Params, o?: CallOptions) => this.call("POST", path, params, o);
  patch = (path: string, params?: Params, o?: CallOptions) => this.call("PATCH", path, params, o);
  delete = (path: string, params?: Params, o?: CallOptions) => this.call("DELETE", path, params, o);
}

/** Asserts a Zulip-style error answer: status, code and msg exactly. */
export async function expectError(res: Promise<Body> | Body, status: number, code: string, msg: string | RegExp) {
  const body = await res;
  expect({ status: body.$status, result: body.result, code: body.code }).toEqual({ status, result: "error", code });
  if (typeof msg === "string") expect(body.msg).toBe(msg);
  else expect(body.msg).toMatch(msg);
  return body;
}

/** Asserts success and returns the body. */
export async function ok(res: Promise<Body> | Body): Promise<Body> {
  const body = await res;
  if (body.result !== "success") throw new Error(`expected success, got ${body.$status} ${JSON.stringify(body)}`);
  return body;
}
