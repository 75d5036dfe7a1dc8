// What actions emit. Each event is one frozen object shared by every queue that receives it; the
// audience is computed once by the action, so delivery never queries the database.
export type ServerEvent = { type: string; [key: string]: unknown };

export type Audience =
  // The users' queues; with publicStreamOf, also every queue of that realm registered with
  // all_public_streams (a message to a public channel).
  | { kind: "users"; userIds: readonly number[]; publicStreamOf?: number }
  // Every member of a realm.
  | { kind: "realm"; realmId: number };

export interface Emitted {
  event: ServerEvent;
  audience: Audience;
}

export const toUsers = (userIds: readonly number[], o: { publicStreamOf?: number } = {}): Audience => ({
  kind: "users",
  userIds,
  ...o,
});
export const toRealm = (realmId: number): Audience => ({ kind: "realm", realmId });

/** What a client asked of its event queue at register (its narrow, capabilities, rendering). */
export interface QueueOptions {
  /** The queue's own id (set by the registry), for what only the sending client sees (local echo). */
  queueId?: string;
  userId: number | null; // null: a spectator (unauthenticated register)
  realmId: number;
  eventTypes: Set<string> | null; // null: every type
  allPublicStreams: boolean;
  /** Decides whether a message event reaches this queue (built from register's `narrow`). */
  acceptsMessage: ((event: ServerEvent) => boolean) | null;
  capabilities: Record<string, boolean>;
  applyMarkdown: boolean;
  clientGravatar: boolean;
  idleTimeoutSecs: number;
}
