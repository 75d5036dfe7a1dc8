// Pages outside the API (/api/v1): a few server-rendered HTML pages and files people open in a
// browser. Each answers a Request with a Response; the server routes them beside the API.
import type { App } from "../../app";
import accounts from "./accounts";
import avatars from "./avatars";
import invites from "./invites";
import staticImages from "./static";

export interface Page {
  method: "GET" | "POST";
  /** An Elysia route pattern, e.g. "/join/:key". */
  path: string;
  /** `ip`: the client's address, worked out when asked for (failed sign-ins are counted by it). */
  handle(app: App, request: Request, params: Record<string, string>, ip: () => string): Promise<Response> | Response;
}

export const pages: Page[] = [...accounts, ...invites, ...avatars, ...staticImages];
