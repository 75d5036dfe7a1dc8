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
