// Subscriptions: joining and leaving channels (for oneself or others), personal channel properties,
// and per-topic visibility policies.
import type { App } from "../context";
import type { ChannelRow, RealmRow, UserRow } from "../db/schema";
import type { Tx } from "../db/tx";
import { notificationDefaults, pickColor, SUBSCRIPTION_PROPERTIES, toApiSubscription, type SubscriptionProperty } from "../domain/channels";
import {
  cannotSubscribeOthers,
  channelAlreadyExists,
  channelsDoNotExist,
  colorNotValidHexColor,
  incompatibleParameters,
  insufficientPermission,
  invalidChannelId,
  invalidUserId,
  noSuchUser,
  notBoolean,
  notSubscribedChannelId,
  unableAccessChannel,
  unauthorizedPrincipal,
  unknownSubscriptionProperty,
} from "../domain/errors";
import type { GroupSettingValue } from "../domain/group-settings";
import { normalizeTopic } from "../domain/messages";
import { isAdmin, isGuest } from "../domain/roles";
import { userSetting, type UserSettingName } from "../domain/user-settings";
import { toUsers } from "../events/types";
import * as channelStore from "../store/channels";
import { hasRealmPermission } from "../store/permissions";
import * as store from "../store/subscriptions";
import { setUserTopic } from "../store/topics";
import { findUserByEmail, findUserById } from "../store/users";
import { checkCanCreate, creationParams, givenPermissions, insertChannelTx, ZULIP_CHANNEL_PERMISSIONS, type ChannelSpec, type CreationArgs } from "./channels";
import { forgetRecipients, sendNotificationTx } from "./messages";
import { p, t, type Args } from "../domain/params";
import { accessChannelById, accessChannelByName, channelAccess, channelAudience, hasChannelPermission } from "../access/channels";
import { statsOf, streamObjects } from "../serializers/channels";
import { mapInOrder } from "../lib/in-order";

/** May this user add others to the channel? Realm-wide permission, the channel's group, or channel administration. */
export async function canAddSubscribers(app: App, realm: RealmRow, user: UserRow, c: ChannelRow): Promise<boolean> {
  if (isGuest(user.role)) return false;
  if (
    isAdmin(user.role) ||
    (await hasChannelPermission(app, user, c, "can_add_subscribers_group")) ||
    (await hasChannelPermission(app, user, c, "can_administer_channel_group"))
  )
    return true;
  // Realm members with the realm permission may add to channels whose content they can access.
  return (await hasRealmPermission(app.db, realm, user, "can_add_subscribers_group")) && (await channelAccess(app, user, c)).content;
}

export async function canRemoveSubscribers(app: App, user: UserRow, c: ChannelRow): Promise<boolean> {
  return (
    isAdmin(user.role) ||
    (await hasChannelPermission(app, user, c, "can_remove_subscribers_group")) ||
    (await hasChannelPermission(app, user, c, "can_administer_channel_group"))
  );
}

/**
 * Subscribes users to channels inside the caller's transaction and tells everyone concerned: each new
 * subscriber gets the channel (and, for a private channel, its creation), everyone else who can see
 * the subscriber list a peer_add. Returns, per channel, who was newly subscribed and who already was.
 */
export async function subscribeUsersTx(
  app: App,
  tx: Tx,
  realm: RealmRow,
  channels: ChannelRow[],
  users: UserRow[],
  colors: ReadonlyMap<string, string> = new Map(),
) {
  const result: { channel: ChannelRow; added: UserRow[]; already: UserRow[] }[] = [];
  for (const c of channels) {
    const current = new Set(await store.subscriberIds(tx.db, c.id));
    const added = users.filter((u) => !current.has(u.id) && u.isActive);
    const already = users.filter((u) => current.has(u.id));
    result.push({ channel: c, added, already });
    if (!added.length) continue;
    const visibleBefore = new Set(await channelAudience(app, c));
    forgetRecipients(app);
    await store.activateSubscriptions(
      tx.db,
      await mapInOrder(added, async (u) => ({
        userId: u.id,
        channelId: c.id,
        color: colors.get(c.name.toLowerCase()) ?? pickColor(await store.usedColors(tx.db, u.id), c.id),
      })),
    );
    const newcomers = added.filter((u) => !visibleBefore.has(u.id)).map((u) => u.id);
    if (newcomers.length) tx.emit({ type: "stream", op: "create", streams: await streamObjects(app, realm, [c]) }, toUsers(newcomers));
    // The channel's counts and subscriber list once, not once per new subscriber.
    const stats = await statsOf(app, c);
    const members = { subscribers: await store.subscriberIds(tx.db, c.id) };
    for (const u of added) {
      const sub = (await store.findSubscription(tx.db, u.id, c.id))!;
      tx.emit({ type: "subscription", op: "add", subscriptions: [toApiSubscription(c, sub, stats, members)], inherit: inheritedBy(u) }, toUsers([u.id]));
    }
    const addedIds = new Set(added.map((u) => u.id));
    const peers = (await channelAudience(app, c)).filter((id) => !addedIds.has(id));
    if (peers.length) tx.emit({ type: "subscription", op: "peer_add", stream_ids: [c.id], user_ids: [...addedIds] }, toUsers(peers));
  }
  return result;
}

export async function unsubscribeUsersTx(app: App, tx: Tx, c: ChannelRow, users: UserRow[]) {
  const current = new Set(await store.subscriberIds(tx.db, c.id));
  const removed = users.filter((u) => current.has(u.id));
  if (!removed.length) return removed;
  const peersBefore = await channelAudience(app, c);
  forgetRecipients(app);
  await store.deactivateSubscriptions(
    tx.db,
    c.id,
    removed.map((u) => u.id),
  );
  const ids = new Set(removed.map((u) => u.id));
  for (const u of removed) tx.emit({ type: "subscription", op: "remove", subscriptions: [{ stream_id: c.id, name: c.name }] }, toUsers([u.id]));
  const peers = peersBefore.filter((id) => !ids.has(id));
  if (peers.length) tx.emit({ type: "subscription", op: "peer_remove", stream_ids: [c.id], user_ids: [...ids] }, toUsers(peers));
  return removed;
}

/** Users named by `principals` (emails or ids), or the caller alone. */
async function principalsOf(app: App, actor: UserRow, principals: (string | number)[] | undefined): Promise<UserRow[]> {
  if (!principals) return [actor];
  return await mapInOrder(principals, async (p) => {
    const u = typeof p === "number" ? await findUserById(app.db, p) : await findUserByEmail(app.db, actor.realmId, p);
    if (!u || u.realmId !== actor.realmId || !u.isActive) throw typeof p === "number" ? noSuchUser() : unauthorizedPrincipal(p);
    return u;
  });
}

/** Each channel by name; a color given is the new subscriptions' color (Zulip's documented `color`). */
const channelRequests = t.list(t.object({ name: t.str(), description: t.optional(t.str()), color: t.optional(t.str()) }));
/** Users by email or by id. */
const principals = () => p.json(t.union<(string | number)[]>(t.list(t.str(), { unique: true }), t.list(t.int(), { unique: true }))).optional();

export const subscribeParams = {
  subscriptions: p.json(channelRequests),
  principals: principals(),
  authorization_errors_fatal: p.bool().optional(true),
  ...creationParams(ZULIP_CHANNEL_PERMISSIONS),
};

/** A new channel's properties from either creation endpoint's parameters. */
const channelSpec = (name: string, description: string, a: CreationArgs): ChannelSpec => ({
  name,
  description,
  inviteOnly: a.invite_only,
  isWebPublic: a.is_web_public,
  historyPublicToSubscribers: a.history_public_to_subscribers,
  messageRetentionDays: a.message_retention_days,
  topicsPolicy: a.topics_policy,
  folderId: a.folder_id,
  isDefault: a.is_default_stream,
  settings: givenPermissions<GroupSettingValue>(a),
});

/** POST /users/me/subscriptions: subscribes the caller (or principals) to channels, creating missing ones. */
export async function subscribe(app: App, realm: RealmRow, actor: UserRow, a: Args<typeof subscribeParams>) {
  const users = await principalsOf(app, actor, a.principals);
  const others = users.some((u) => u.id !== actor.id);
  const existing: ChannelRow[] = [];
  const toCreate: ChannelSpec[] = [];
  const unauthorized: string[] = [];
  const seen = new Set<string>();
  const colors = new Map<string, string>();
  for (const s of a.subscriptions) {
    const name = s.name.trim();
    if (s.color !== undefined) {
      if (!HEX_COLOR.test(s.color)) throw colorNotValidHexColor();
      colors.set(name.toLowerCase(), s.color);
    }
    if (seen.has(name.toLowerCase())) continue;
    seen.add(name.toLowerCase());
    const c = await channelStore.findChannelByName(app.db, realm.id, name);
    if (c && !c.isArchived) {
      const access = await channelAccess(app, actor, c);
      if (others && access.metadata && !(await canAddSubscribers(app, realm, actor, c))) throw cannotSubscribeOthers();
      if (!(others ? access.metadata : access.content)) {
        if (a.authorization_errors_fatal) throw unableAccessChannel(c.name);
        unauthorized.push(c.name);
        continue;
      }
      existing.push(c);
    } else if (c) {
      throw channelAlreadyExists(c.name);
    } else {
      const spec = channelSpec(name, s.description ?? "", a);
      await checkCanCreate(app, realm, actor, spec);
      toCreate.push(spec);
    }
  }
  if (others && toCreate.length && !(await hasRealmPermission(app.db, realm, actor, "can_add_subscribers_group")) && !isAdmin(actor.role))
    throw cannotSubscribeOthers();
  return await app.tx(async (tx) => {
    const created = await mapInOrder(toCreate, async (spec) => await insertChannelTx(app, tx, realm, actor, spec));
    const results = await subscribeUsersTx(app, tx, realm, [...created, ...existing], users, colors);
    const subscribed: Record<string, string[]> = {};
    const already: Record<string, string[]> = {};
    for (const r of results) {
      for (const u of r.added) (subscribed[String(u.id)] ??= []).push(r.channel.name);
      for (const u of r.already) (already[String(u.id)] ??= []).push(r.channel.name);
    }
    for (const c of created) await announceChannelTx(app, tx, realm, actor, c, a.announce);
    let sent = false;
    if (a.send_new_subscription_messages)
      for (const u of users) {
        if (u.id === actor.id || u.isBot) continue;
        const names = subscribed[String(u.id)];
        if (!names?.length) continue;
        const who = `@_**${actor.fullName}|${actor.id}**`;
        const content =
          names.length === 1
            ? `${who} subscribed you to the channel #**${names[0]}**.`
            : `${who} subscribed you to the following channels:\n\n${names.map((n) => `* #**${n}**`).join("\n")}`;
        await sendNotificationTx(app, tx, realm, { to: u }, content);
        sent = true;
      }
    const out: Record<string, unknown> = { subscribed, already_subscribed: already, new_subscription_messages_sent: sent };
    if (!a.authorization_errors_fatal) out.unauthorized = unauthorized;
    return out;
  });
}

const POLICY_NAMES = (c: ChannelRow) =>
  c.isWebPublic ? "Web-public" : !c.inviteOnly ? "Public" : c.historyPublicToSubscribers ? "Private, shared history" : "Private, protected history";

/** The notification bot's notes on a new channel: in its "channel events" topic, and (announce) in the realm's announcements channel. */
export async function announceChannelTx(app: App, tx: Tx, realm: RealmRow, creator: UserRow, c: ChannelRow, announce: boolean) {
  const who = `@_**${creator.fullName}|${creator.id}**`;
  const description = c.description ? `\n\`\`\`\` quote\n${c.description}\n\`\`\`\`` : " *No description.*";
  await sendNotificationTx(
    app,
    tx,
    realm,
    { channel: c, topic: "channel events" },
    `**${POLICY_NAMES(c)}** channel created by ${who}. **Description:**${description}`,
  );
  if (!announce || c.inviteOnly) return;
  const target = Number(realm.settings.new_stream_announcements_stream_id ?? -1);
  const ann = target > 0 ? await channelStore.findChannel(tx.db, target) : undefined;
  if (ann && ann.realmId === realm.id && !ann.isArchived)
    await sendNotificationTx(app, tx, realm, { channel: ann, topic: "new channels" }, `${who} created a new channel #**${c.name}**.`);
}

export const createChannelParams = { name: p.str(), description: p.str().optional(""), subscribers: p.intList(), ...creationParams() };

/** POST /channels/create: a new channel with its first subscribers; answers its id. */
export async function createChannel(app: App, realm: RealmRow, actor: UserRow, a: Args<typeof createChannelParams>) {
  const spec = channelSpec(a.name, a.description, a);
  await checkCanCreate(app, realm, actor, spec);
  const users = await mapInOrder(a.subscribers, async (id) => {
    const u = await findUserById(app.db, id);
    if (!u || u.realmId !== realm.id || !u.isActive) throw invalidUserId(id);
    return u;
  });
  if (users.some((u) => u.id !== actor.id) && !isAdmin(actor.role) && !(await hasRealmPermission(app.db, realm, actor, "can_add_subscribers_group")))
    throw cannotSubscribeOthers();
  return await app.tx(async (tx) => {
    const c = await insertChannelTx(app, tx, realm, actor, spec);
    await subscribeUsersTx(app, tx, realm, [c], users);
    await announceChannelTx(app, tx, realm, actor, c, a.announce);
    return { id: c.id };
  });
}

/** DELETE /users/me/subscriptions. */
export const unsubscribeParams = { subscriptions: p.strList(), principals: principals() };

export async function unsubscribe(app: App, realm: RealmRow, actor: UserRow, a: Args<typeof unsubscribeParams>) {
  const users = await principalsOf(app, actor, a.principals);
  const others = users.some((u) => u.id !== actor.id);
  const channels: ChannelRow[] = [];
  const notRemoved: string[] = [];
  for (const name of a.subscriptions) {
    const c = await channelStore.findChannelByName(app.db, realm.id, name);
    if (!c || !(await channelAccess(app, actor, c)).metadata) throw channelsDoNotExist(name);
    if (others && !(await canRemoveSubscribers(app, actor, c))) throw insufficientPermission();
    channels.push(c);
  }
  return await app.tx(async (tx) => {
    const removed: string[] = [];
    for (const c of channels) {
      const done = await unsubscribeUsersTx(app, tx, c, users);
      if (done.length) removed.push(c.name);
      else notRemoved.push(c.name);
    }
    return { removed, not_removed: notRemoved };
  });
}

/** PATCH /users/me/subscriptions: a subscribe and an unsubscribe in one call. */
export const updateSubscriptionsParams = { add: p.json(channelRequests).optional(() => []), delete: p.strList().optional(() => []) };

export async function updateSubscriptions(app: App, realm: RealmRow, actor: UserRow, a: Args<typeof updateSubscriptionsParams>) {
  const added = a.add.length
    ? await subscribe(app, realm, actor, {
        subscriptions: a.add,
        authorization_errors_fatal: true,
        announce: false,
        invite_only: false,
        is_web_public: false,
        is_default_stream: false,
        send_new_subscription_messages: true,
      })
    : { subscribed: {}, already_subscribed: {} };
  const removed = a.delete.length ? await unsubscribe(app, realm, actor, { subscriptions: a.delete }) : { removed: [], not_removed: [] };
  return { subscribed: added.subscribed, already_subscribed: added.already_subscribed, removed: removed.removed, not_removed: removed.not_removed };
}

/** GET /users/me/subscriptions. */
export async function listSubscriptions(app: App, realm: RealmRow, user: UserRow, includeSubscribers: boolean) {
  const subs = (await store.listUserSubscriptions(app.db, user.id)).filter((s) => s.active);
  const channels = (await channelStore.listChannels(app.db, realm.id)).filter((c) => !c.isArchived);
  const byId = new Map(channels.map((c) => [c.id, c]));
  const mine = subs.filter((s) => byId.has(s.channelId));
  const stats = await channelStore.channelStats(
    app.db,
    realm.id,
    mine.map((s) => byId.get(s.channelId)!),
    app.now(),
  );
  const members = includeSubscribers ? await store.realmSubscribers(app.db, realm.id) : null;
  return {
    subscriptions: mine.map((s) => {
      const c = byId.get(s.channelId)!;
      return toApiSubscription(c, s, stats.get(c.id)!, members ? { subscribers: members.get(c.id) ?? [] } : undefined);
    }),
  };
}

/** GET /users/{user_id}/subscriptions/{stream_id}. */
export async function isUserSubscribed(app: App, actor: UserRow, userId: number, channelId: number) {
  const u = await findUserById(app.db, userId);
  if (!u || u.realmId !== actor.realmId) throw noSuchUser();
  const { channel } = await accessChannelById(app, actor, channelId, { archived: true });
  return { is_subscribed: await store.isSubscribed(app.db, u.id, channel.id) };
}

// ---- Personal properties ----

const HEX_COLOR = /^#([0-9a-fA-F]{3}|[0-9a-fA-F]{6})$/;

/** POST /users/me/subscriptions/properties: all changes are checked first, then applied in one transaction. */
export async function setSubscriptionProperties(app: App, user: UserRow, data: { stream_id: number; property: string; value: unknown }[]) {
  const changes = await mapInOrder(data, async (d) => {
    const kind = (SUBSCRIPTION_PROPERTIES as Record<string, string>)[d.property];
    if (!kind) throw unknownSubscriptionProperty(d.property);
    const c = await channelStore.findChannel(app.db, d.stream_id);
    if (!c || c.realmId !== user.realmId) throw invalidChannelId();
    if (!(await store.isSubscribed(app.db, user.id, c.id))) throw notSubscribedChannelId(c.id);
    const v = d.value;
    if (kind === "color" && (typeof v !== "string" || !HEX_COLOR.test(v))) throw colorNotValidHexColor();
    if (kind === "bool" && typeof v !== "boolean") throw notBoolean(d.property);
    if (kind === "nullableBool" && v !== null && typeof v !== "boolean") throw notBoolean(d.property);
    return { c, property: d.property as SubscriptionProperty, value: v };
  });
  await app.tx(async (tx) => {
    for (const { c, property, value } of changes) {
      const column: Record<string, string> = {
        color: "color",
        pin_to_top: "pinToTop",
        is_muted: "isMuted",
        in_home_view: "isMuted",
        desktop_notifications: "desktopNotifications",
        email_notifications: "emailNotifications",
        push_notifications: "pushNotifications",
        audible_notifications: "audibleNotifications",
        wildcard_mentions_notify: "wildcardMentionsNotify",
      };
      const stored = property === "in_home_view" ? !value : value;
      await store.updateSubscription(tx.db, user.id, c.id, { [column[property]!]: stored });
      const emit = (p: string, v: unknown) =>
        tx.emit({ type: "subscription", op: "update", stream_id: c.id, property: p, value: v, inherit: inheritedBy(user) }, toUsers([user.id]));
      // Old clients read in_home_view, new ones is_muted: both hear of either change.
      if (property === "in_home_view" || property === "is_muted") {
        emit("in_home_view", property === "in_home_view" ? value : !value);
        emit("is_muted", stored);
      } else emit(property, value);
    }
  });
  return {};
}

// ---- Topic visibility ----

export const topicVisibilityParams = {
  stream_id: p.int(),
  topic: p.str(),
  visibility_policy: p.intEnum([0, 1, 2, 3] as const),
};

/** POST /user_topics: mute, unmute, follow or reset a topic for the caller. */
export async function setTopicVisibility(app: App, user: UserRow, a: Args<typeof topicVisibilityParams>) {
  const { channel } = await accessChannelById(app, user, a.stream_id, { content: true, archived: true });
  const topic = normalizeTopic(a.topic, app.config.limits.maxTopicLength);
  const now = app.now();
  await app.tx(async (tx) => {
    await setUserTopic(tx.db, user.id, channel.id, topic, a.visibility_policy, now);
    tx.emit({ type: "user_topic", stream_id: channel.id, topic_name: topic, last_updated: now, visibility_policy: a.visibility_policy }, toUsers([user.id]));
  });
  return {};
}

/** Zulip's topic visibility policies that the legacy form sets. */
const INHERIT = 0;
const MUTED = 1;

export const mutedTopicParams = {
  stream_id: p.int().optional(),
  stream: p.str().optional(),
  topic: p.str(),
  op: p.enum(["add", "remove"] as const),
};

/** PATCH /users/me/subscriptions/muted_topics: Zulip's older form, a channel by id or name; "remove" resets the topic. */
export async function muteTopicLegacy(app: App, user: UserRow, a: Args<typeof mutedTopicParams>) {
  if ((a.stream_id === undefined) === (a.stream === undefined)) throw incompatibleParameters(["stream_id", "stream"]);
  const channelId = a.stream_id ?? (await accessChannelByName(app, user, a.stream!)).channel.id;
  return await setTopicVisibility(app, user, { stream_id: channelId, topic: a.topic, visibility_policy: a.op === "add" ? MUTED : INHERIT });
}

/** What a user's null notification settings stand for; events carry it for clients without notification_settings_null. */
const inheritedBy = (u: UserRow) => notificationDefaults((name) => userSetting(u, name as UserSettingName));
