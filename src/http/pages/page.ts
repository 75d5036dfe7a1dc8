// What a page outside the API is: a method, a path and a handler (pages/index.ts lists them).
import type { App } from "../../context";

export interface Page {
  method: "GET" | "POST";
  /** A Bun.serve route pattern, e.g. "/join/:key"; a final `*` gives the rest of the path as params["*"]. */
  path: string;
  /** `ip` gives the client's address (for rate limits). */
  handle(app: App, request: Request, params: Record<string, string>, ip: () => string): Promise<Response> | Response;
}
