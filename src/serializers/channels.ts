// Channel objects as the API shows them (GET /streams, register's streams, stream events).
import type { App } from "../context";
import type { ChannelRow, RealmRow } from "../db/schema";
import { toApiStream, type ChannelStats } from "../domain/channels";
import * as store from "../store/channels";

export async function streamObjects(app: App, realm: RealmRow, list: ChannelRow[], o: { includeDefault?: boolean } = {}) {
  const stats = await store.channelStats(app.db, realm.id, list, app.now());
  return list.map((c) => toApiStream(c, stats.get(c.id)!, o));
}

export const statsOf = async (app: App, c: ChannelRow): Promise<ChannelStats> => (await store.channelStats(app.db, c.realmId, [c], app.now())).get(c.id)!;
