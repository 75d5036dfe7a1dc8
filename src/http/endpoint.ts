import type { App } from "../app";
import type { RealmRow, UserRow } from "../db/schema";
import type { Args, ParamTable } from "./params";

/** Who may call: an API user (HTTP Basic), anyone, anyone with an optional user (spectator register). */
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
}

type UserFor<A extends AuthMode> = A extends "user" ? UserRow : A extends "optional" ? UserRow | null : null;

export interface Endpoint {
  method: string;
  /** Zulip's path template after /api/v1, e.g. "/users/{user_id}". */
  path: string;
  auth: AuthMode;
  params: ParamTable;
  /** A body limit other than limits.max_request_bytes (file uploads). */
  maxBodyBytes?: (app: App) => number;
  /** Returns the success fields (merged into {result, msg}) or a ready Response. */
  run(ctx: Ctx<any, any>): unknown;
}

export function endpoint<P extends ParamTable, A extends AuthMode = "user">(
  method: "GET" | "POST" | "PATCH" | "DELETE" | "PUT",
  path: string,
  spec: { auth?: A; params: P; maxBodyBytes?: (app: App) => number; run: (ctx: Ctx<P, UserFor<A>>) => unknown },
): Endpoint {
  return { method, path, auth: spec.auth ?? "user", params: spec.params, maxBodyBytes: spec.maxBodyBytes, run: spec.run as Endpoint["run"] };
}
