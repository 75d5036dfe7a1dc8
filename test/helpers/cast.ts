// The cast most feature tests start from, in one place instead of each file's own beforeAll.
import { ok, type Client } from "./client";
import { startServer, type TestServer } from "./server";

export interface Cast {
  s: TestServer;
  ann: Client;
  bob: Client;
  /** The channel both are subscribed to (created by `ann`). */
  channelId: number;
}

/** A fresh server with two members named `names`, both subscribed to a new channel `channel`. */
export async function twoMembersInAChannel(names: [string, string], channel: { name: string; invite_only?: boolean }): Promise<Cast> {
  const s = await startServer();
  const ann = await s.newUser({ name: names[0] });
  const bob = await s.newUser({ name: names[1] });
  const channelId = (await ok(ann.post("/channels/create", { ...channel, subscribers: [ann.userId, bob.userId] }))).id as number;
  return { s, ann, bob, channelId };
}
