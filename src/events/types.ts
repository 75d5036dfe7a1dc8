// What actions emit. Each event is one frozen object shared by every queue that receives it; the
// audience is computed once by the action, so delivery never queries the database.
export type ServerEvent = { type: string; [key: string]: unknown };

export type Audience =
  | { kind: "users"; userIds: readonly number[] }
  // Every member of a realm (and, when publicReaders is set, queues that read all public channels).
  | { kind: "realm"; realmId: number };

export interface Emitted {
  event: ServerEvent;
  audience: Audience;
}

export const toUsers = (userIds: readonly number[]): Audience => ({ kind: "users", userIds });
export const toRealm = (realmId: number): Audience => ({ kind: "realm", realmId });
