// Pages outside the API (/api/v1): a few server-rendered HTML pages and files people open in a
// browser. Each answers a Request with a Response; the server routes them beside the API.
import type { App } from "../../app";
import accounts from "./accounts";
import avatars from "./avatars";
import exports from "./exports";
import external from "./external";
import invites from "./invites";
import ops from "./ops";
import signIn from "./sign-in";
import staticImages from "./static";
import uploads from "./uploads";

export interface Page {
  method: "GET" | "POST";
  /** An Elysia route pattern, e.g. "/join/:key". */
  path: string;
  /** `ip` gives the client's address (for rate limits). */
  handle(app: App, request: Request, params: Record<string, string>, ip: () => string): Promise<Response> | Response;
}

export const pages: Page[] = [...signIn, ...invites, ...accounts, ...avatars, ...exports, ...staticImages, ...uploads, ...external, ...ops];
