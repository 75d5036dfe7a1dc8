// register's unread_msgs and recent_private_conversations: a user's unread messages by conversation.
import type { App } from "../context";
import type { UserRow } from "../db/schema";
import { FLAG } from "../domain/message-flags";
import { dmKeyMembers } from "../domain/messages";
import * as store from "../store/message-flags";
import { mutedChannelIds } from "../store/subscriptions";
import { listUserTopics } from "../store/topics";

/** Zulip caps the unread messages register reports; beyond it old_unreads_missing is set. */
export const MAX_UNREAD_MESSAGES = 50000;

/** register's unread_msgs: unread messages grouped by conversation, mentions, and the total count. */
export async function unreadMessages(app: App, user: UserRow) {
  const rows = await store.unreadRows(app.db, user.id, MAX_UNREAD_MESSAGES + 1);
  const missing = rows.length > MAX_UNREAD_MESSAGES;
  if (missing) rows.length = MAX_UNREAD_MESSAGES;
  rows.reverse();
  const mutedChannels = new Set(await mutedChannelIds(app.db, user.id, { activeOnly: true }));
  const policies = new Map((await listUserTopics(app.db, user.id)).map((t) => [`${t.channelId}\u0000${t.topic.toLowerCase()}`, t.visibilityPolicy]));
  const isMuted = (channelId: number, topic: string) => {
    const p = policies.get(`${channelId}\u0000${topic.toLowerCase()}`);
    if (p === 1) return true;
    if (p === 2 || p === 3) return false;
    return mutedChannels.has(channelId);
  };
  const pms = new Map<number, number[]>();
  const huddles = new Map<string, number[]>();
  const streams = new Map<string, { stream_id: number; topic: string; unread_message_ids: number[] }>();
  const mentions: number[] = [];
  let count = 0;
  for (const r of rows) {
    const muted = r.channelId !== null && isMuted(r.channelId, r.topic);
    if (r.flags & FLAG.mentioned || (r.flags & (FLAG.stream_wildcard_mentioned | FLAG.topic_wildcard_mentioned) && !muted)) mentions.push(r.id);
    if (r.channelId !== null) {
      const key = `${r.channelId}\u0000${r.topic.toLowerCase()}`;
      let s = streams.get(key);
      if (!s) streams.set(key, (s = { stream_id: r.channelId, topic: r.topic, unread_message_ids: [] }));
      s.unread_message_ids.push(r.id);
      if (!muted) count++;
      continue;
    }
    const members = dmKeyMembers(r.dmKey!);
    count++;
    if (members.length <= 2) {
      const other = members.find((u) => u !== user.id) ?? user.id;
      pms.set(other, [...(pms.get(other) ?? []), r.id]);
    } else huddles.set(r.dmKey!, [...(huddles.get(r.dmKey!) ?? []), r.id]);
  }
  return {
    count,
    pms: [...pms].map(([other, ids]) => ({ other_user_id: other, sender_id: other, unread_message_ids: ids })),
    streams: [...streams.values()],
    huddles: [...huddles].map(([key, ids]) => ({ user_ids_string: key, unread_message_ids: ids })),
    mentions,
    old_unreads_missing: missing,
  };
}

/** register's recent_private_conversations (at most 1000, newest first). */
export async function recentPrivateConversations(app: App, user: UserRow) {
  return (await store.recentConversations(app.db, user.id, 1000)).map((r) => ({
    max_message_id: r.max_id,
    user_ids: dmKeyMembers(r.key).filter((u) => u !== user.id),
  }));
}
