// Missed-message emails, as Zulip sends them: the send path schedules, for each recipient a message
// concerns (a direct message, a mention, a followed topic, a channel they asked email for), a
// notification due after their batching period; the email worker then mails, per conversation, what
// is still unread and arrived after the user was last active.
import type { App } from "../context";
import type { ChannelRow, MessageRow, UserRow } from "../db/schema";
import type { Tx } from "../db/tx";
import {
  missedMessagesMail,
  narrowUrl,
  TRIGGERS,
  unsubscribeKindOf,
  type Conversation,
  type MissedMessage,
  type Trigger,
  type UnsubscribeKind,
} from "../domain/email";
import { FLAG } from "../domain/message-flags";
import { realmSetting } from "../domain/realm-settings";
import { realmUrl } from "../domain/realms";
import { userSetting, type UserSettingName } from "../domain/user-settings";
import * as store from "../store/email";
import { messageLookups } from "../store/messages";
import { listMuterIds } from "../store/muted-users";
import { findRealmById } from "../store/realms";
import { findUserGroup, listRecursiveMemberIds } from "../store/user-groups";
import { findUserById, listUsersByIds } from "../store/users";
import { queueMailTx } from "./email";
import { derivedKey } from "./secrets";
import { mapInOrder } from "../lib/in-order";

/** The message as the send path knows it, with each recipient's initial flags. */
export interface SentForNotification {
  messageId: number;
  sender: UserRow;
  channel: ChannelRow | null;
  topic: string;
  recipients: readonly number[];
  base: number;
  own: Map<number, number>;
  mentionedUserIds: readonly number[];
  mentionedGroupIds: readonly number[];
}

/** The setting that must be on for each trigger to mail (a channel's: its subscription's, see channelEmailSubscribers). */
const TRIGGER_SETTING: Record<Trigger, UserSettingName | null> = {
  direct_message: "enable_offline_email_notifications",
  mentioned: "enable_offline_email_notifications",
  wildcard_mentioned: "enable_offline_email_notifications",
  followed_topic: "enable_followed_topic_email_notifications",
  channel: null,
};
const triggerAllowed = (u: UserRow, t: Trigger) => {
  const setting = TRIGGER_SETTING[t];
  return setting === null || !!userSetting(u, setting);
};

/**
 * Channel recipients an email may concern besides those with flags: followers of the topic and
 * subscribers who want the channel's messages by email. The send path gives them user_messages rows
 * (so their reading is recorded) before calling `scheduleMissedMessagesTx`.
 */
export async function channelEmailRecipients(
  app: App,
  tx: Tx,
  channel: ChannelRow,
  topic: string,
): Promise<{ followers: Set<number>; subscribers: Set<number> }> {
  if (!app.config.email.enabled) return { followers: new Set(), subscribers: new Set() };
  return {
    followers: new Set(await store.topicFollowers(tx.db, channel.id, topic)),
    subscribers: new Set(await store.channelEmailSubscribers(tx.db, channel.id)),
  };
}

/** Schedules the notifications one sent message calls for, inside the send's transaction. */
export async function scheduleMissedMessagesTx(app: App, tx: Tx, m: SentForNotification, extra: { followers: Set<number>; subscribers: Set<number> } | null) {
  if (!app.config.email.enabled) return;
  const why = new Map<number, { trigger: Trigger; group: number | null }>();
  const consider = (id: number, trigger: Trigger, group: number | null = null) => {
    const had = why.get(id);
    if (id !== m.sender.id && (!had || TRIGGERS.indexOf(trigger) < TRIGGERS.indexOf(had.trigger))) why.set(id, { trigger, group });
  };
  if (!m.channel) for (const id of m.recipients) consider(id, "direct_message");
  else {
    const personal = new Set(m.mentionedUserIds);
    const groupOf = new Map<number, number>();
    for (const gid of m.mentionedGroupIds) for (const id of await listRecursiveMemberIds(tx.db, gid)) if (!groupOf.has(id)) groupOf.set(id, gid);
    const wildcardForAll = (m.base & FLAG.stream_wildcard_mentioned) !== 0;
    const flagged = wildcardForAll ? m.recipients : [...m.own.keys()];
    for (const id of flagged) {
      const f = m.own.get(id) ?? m.base;
      if (f & FLAG.mentioned) consider(id, "mentioned", personal.has(id) ? null : (groupOf.get(id) ?? null));
      else if (f & (FLAG.stream_wildcard_mentioned | FLAG.topic_wildcard_mentioned)) consider(id, "wildcard_mentioned");
    }
    for (const id of extra?.followers ?? []) if (m.recipients.includes(id)) consider(id, "followed_topic");
    for (const id of extra?.subscribers ?? []) consider(id, "channel");
  }
  if (!why.size) return;
  const muters = new Set(await listMuterIds(tx.db, m.sender.id));
  const wildcardOverride = m.channel
    ? await store.wildcardOverrides(
        tx.db,
        m.channel.id,
        [...why].filter(([, w]) => w.trigger === "wildcard_mentioned").map(([id]) => id),
      )
    : new Map();
  const now = app.now();
  const rows = (await listUsersByIds(tx.db, [...why.keys()]))
    .filter((u) => u.isActive && !u.isBot && !muters.has(u.id))
    .flatMap((u) => {
      const w = why.get(u.id)!;
      if (!triggerAllowed(u, w.trigger)) return [];
      if (w.trigger === "wildcard_mentioned" && !(wildcardOverride.get(u.id) ?? userSetting(u, "wildcard_mentions_notify"))) return [];
      const period = userSetting(u, "email_notifications_batching_period_seconds") as number;
      return [{ userId: u.id, messageId: m.messageId, trigger: w.trigger, mentionedGroupId: w.group, scheduledAt: now + period }];
    });
  await store.insertMissedMessages(tx.db, rows);
}

/**
 * Mails a user's scheduled notifications (called by the email worker once the first is due): the
 * messages still unread and sent since the user was last active, one email per conversation.
 */
export async function mailMissedMessages(app: App, userId: number) {
  await app.tx(async (tx) => {
    const scheduled = await store.takeMissedMessages(tx.db, userId);
    const user = await findUserById(tx.db, userId);
    const realm = user && (await findRealmById(tx.db, user.realmId));
    if (!user?.isActive || !realm || realm.deactivated) return;
    const wanted = new Map(scheduled.filter((s) => triggerAllowed(user, s.trigger as Trigger)).map((s) => [s.messageId, s]));
    const messages = await store.unreadMessagesSince(tx.db, userId, [...wanted.keys()], user.lastActive ?? 0);
    if (!messages.length) return;
    const l = await messageLookups(tx.db, messages);
    const url = realmUrl(app.config.externalUrl, realm.stringId);
    const byConversation = new Map<string, MessageRow[]>();
    for (const msg of messages) {
      const key = `${msg.recipientId}:${msg.topic.toLowerCase()}`;
      byConversation.set(key, [...(byConversation.get(key) ?? []), msg]);
    }
    const contentByRealm = !!realmSetting(realm, "message_content_allowed_in_email_notifications");
    const contentByUser = !!userSetting(user, "message_content_in_email_notifications");
    for (const list of byConversation.values()) {
      const first = list[0]!;
      const rec = l.recipients.get(first.recipientId)!;
      const conversation: Conversation =
        rec.channelId !== null
          ? { type: "channel", id: rec.channelId, name: l.channelNames.get(rec.channelId) ?? "", topic: first.topic }
          : {
              type: "dm",
              others: rec
                .dmKey!.split(",")
                .map(Number)
                .filter((id) => id !== user.id)
                .map((id) => ({ id, name: l.users.get(id)?.fullName ?? "" })),
            };
      const missed: MissedMessage[] = await mapInOrder(list, async (msg) => {
        const s = wanted.get(msg.id)!;
        const group = s.mentionedGroupId === null ? undefined : (await findUserGroup(tx.db, realm.id, s.mentionedGroupId))?.name;
        return {
          id: msg.id,
          sender: l.users.get(msg.senderId)?.fullName ?? "",
          html: absoluteLinks(msg.renderedContent, url),
          text: msg.content,
          trigger: s.trigger as Trigger,
          group,
        };
      });
      const kind = unsubscribeKindOf(missed.map((m) => m.trigger));
      const mail = missedMessagesMail({
        to: user.email,
        org: realm.name,
        conversation,
        messages: missed,
        showContent: contentByRealm && contentByUser,
        hiddenBy: contentByRealm ? (contentByUser ? null : "user") : "organization",
        link: narrowUrl(url, conversation, list[list.length - 1]!.id),
        unsubscribe: { kind, link: unsubscribeLink(app, url, user.id, kind) },
      });
      await queueMailTx(app, tx, realm.id, "missed_messages", mail);
    }
  });
}

/** Links in rendered messages are relative to the organization ("/user_uploads/...", "/#narrow/..."). */
const absoluteLinks = (html: string, base: string) => html.replace(/\b(href|src)="\/(?!\/)/g, `$1="${base}/`);

// ---- Unsubscribing ----

export const unsubscribeMac = (app: App, userId: number, kind: string) =>
  new Bun.CryptoHasher("sha256", derivedKey(app, "unsubscribe")).update(`${userId}:${kind}`).digest("base64url");

/** Zulip's one-click unsubscribe path; the token is a MAC of the user and kind, so links need no table. */
const unsubscribeLink = (app: App, realmUrl: string, userId: number, kind: UnsubscribeKind) =>
  `${realmUrl}/accounts/unsubscribe/${kind}/${userId}.${unsubscribeMac(app, userId, kind)}/`;
