// Message retention: messages older than their channel's message_retention_days (or, for a channel
// that inherits and for direct messages, the realm's) are deleted, with the same delete_message events
// a deletion by hand sends. -1 keeps messages forever (the default).
import type { App } from "../context";
import type { ChannelRow, MessageRow } from "../db/schema";
import { realmSetting } from "../domain/realm-settings";
import { listChannels } from "../store/channels";
import { listRealms } from "../store/realms";
import { dmRecipientIds, messagesSentBefore } from "../store/retention";
import { deleteMessagesTx } from "./message-edits";

/** One transaction at most this many messages, so a large expiry never holds the writer for long. */
const BATCH = 1000;
const DAY = 86400;

/** Deletes what the retention policies say is too old; returns how many messages went. */
export async function applyRetention(app: App, now = app.now()): Promise<number> {
  let deleted = 0;
  for (const realm of await listRealms(app.db)) {
    const realmDays = realmSetting(realm, "message_retention_days") as number;
    const targets: { recipientId: number; channel: ChannelRow | null; days: number }[] = [];
    for (const c of await listChannels(app.db, realm.id)) {
      const days = c.messageRetentionDays ?? realmDays;
      if (days > 0) targets.push({ recipientId: c.recipientId, channel: c, days });
    }
    if (realmDays > 0) for (const id of await dmRecipientIds(app.db, realm.id)) targets.push({ recipientId: id, channel: null, days: realmDays });
    for (const t of targets) {
      for (;;) {
        const rows = await messagesSentBefore(app.db, t.recipientId, now - t.days * DAY, BATCH);
        if (!rows.length) break;
        // delete_message events name one topic each: one deletion per topic.
        await app.tx(async (tx) => {
          for (const group of byTopic(rows)) await deleteMessagesTx(app, tx, realm, t.channel, group);
        });
        deleted += rows.length;
        if (rows.length < BATCH) break;
      }
    }
  }
  if (deleted) app.log.info("retention", { deleted });
  return deleted;
}

function byTopic(rows: MessageRow[]): MessageRow[][] {
  const groups = new Map<string, MessageRow[]>();
  for (const r of rows) {
    const g = groups.get(r.topic);
    if (g) g.push(r);
    else groups.set(r.topic, [r]);
  }
  return [...groups.values()];
}
