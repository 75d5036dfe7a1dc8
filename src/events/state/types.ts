import type { App } from "../../context";
import type { RealmRow, UserRow } from "../../db/schema";

/** What register asked for, as every state builder sees it. */
export interface RegisterOptions {
  applyMarkdown: boolean;
  clientGravatar: boolean;
  includeSubscribers: boolean | "partial";
  slimPresence: boolean;
  presenceHistoryLimitDays: number;
  allPublicStreams: boolean;
  capabilities: Record<string, boolean>;
  narrow: [string, string][];
}

export interface StateContext {
  app: App;
  realm: RealmRow;
  /** null for a spectator (unauthenticated register): only web-public data. */
  user: UserRow | null;
  opts: RegisterOptions;
}

/** Builds the initial state for one fetch_event_types entry: the register response keys it owns. */
export type StateBuilder = (ctx: StateContext) => Record<string, unknown> | Promise<Record<string, unknown>>;
