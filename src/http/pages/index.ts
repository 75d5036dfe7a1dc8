// Pages outside the API (/api/v1): a few server-rendered HTML pages and files people open in a
// browser. Each answers a Request with a Response; the server routes them beside the API.
import type { App } from "../../app";
import avatars from "./avatars";
import external from "./external";
import invites from "./invites";
import staticImages from "./static";

export interface Page {
  method: "GET" | "POST";
  /** An Elysia route pattern, e.g. "/join/:key". */
  path: string;
  /** `ip` works out the client's address (for counting failed authentications). */
  handle(app: App, request: Request, params: Record<string, string>, ip: () => string): Promise<Response> | Response;
}

export const pages: Page[] = [...invites, ...avatars, ...staticImages, ...external];
