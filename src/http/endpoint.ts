import type { App } from "../context";
import type { RealmRow, SessionRow, UserRow } from "../db/schema";
import type { Args, ParamTable } from "../domain/params";

/**
 * Who may call: an API user, anyone, anyone with an optional user (spectator register). The user is
 * found by HTTP Basic under /api/v1 and by the session cookie under /json (http/session.ts).
 */
export type AuthMode = "user" | "none" | "optional";

export interface Ctx<P extends ParamTable, U> {
  app: App;
  realm: RealmRow;
  user: U;
  args: Args<P>;
  /** Files of a multipart body (e.g. an avatar upload), whatever their field names. */
  files: File[];
  req: Request;
  ip: string;
  /** The browser session of a /json request (null under /api/v1). */
  session: SessionRow | null;
}

type UserFor<A extends AuthMode> = A extends "user" ? UserRow : A extends "optional" ? UserRow | null : null;

export interface Endpoint {
  method: string;
  /** Zulip's path template after /api/v1, e.g. "/users/{user_id}". */
  path: string;
  auth: AuthMode;
  params: ParamTable;
  /**
   * Which body size limit applies: "api" (limits.max_api_request_bytes, every ordinary call) or
   * "upload" (limits.max_request_bytes, for endpoints that take files or imports).
   */
  body: BodyLimit;
  /**
   * Answers only reads (GET, and POST /register): whatever it wrote was derived state (delivery rows),
   * so its answer stands even if that write's COMMIT fails (a full disk).
   */
  readOnly: boolean;
  /** Returns the success fields (merged into {result, msg}) or a ready Response. */
  run(ctx: Ctx<any, any>): unknown;
}

export type BodyLimit = "api" | "upload";

export function endpoint<P extends ParamTable, A extends AuthMode = "user">(
  method: "GET" | "POST" | "PATCH" | "DELETE" | "PUT",
  path: string,
  spec: { auth?: A; body?: BodyLimit; readOnly?: boolean; params: P; run: (ctx: Ctx<P, UserFor<A>>) => unknown },
): Endpoint {
  const { auth = "user" as A, body = "api", readOnly = method === "GET", params, run } = spec;
  return { method, path, auth, body, readOnly, params, run: run as Endpoint["run"] };
}
