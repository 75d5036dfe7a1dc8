// Channels: who may see and do what, creation, changes, archiving, topics and default channels.
import type { App } from "../context";
import type { ChannelRow, RealmRow, UserRow } from "../db/schema";
import type { Tx } from "../db/tx";
import {
  CHANNEL_PERMISSION_NAMES,
  CHANNEL_PERMISSIONS,
  checkChannelName,
  TOPICS_POLICIES,
  cleanDescription,
  toApiStream,
  type ChannelPermission,
  type ChannelStats,
  type TopicsPolicy,
} from "../domain/channels";
import {
  badValue,
  badRetentionDays,
  canCreateTopicGroupMust,
  channelAlreadyExists,
  channelArchived,
  defaultChannelCannotBePrivate,
  enableConfigurationAllMessagesChannel,
  insufficientPermission,
  invalidChannelId,
  invalidChannelName,
  mustBeAdmin,
  mustBeOwner,
  notAuthorizedForQuery,
  privateChannelsCannotBeMadeDefault,
  webPublicChannelsNotEnabled,
} from "../domain/errors";
import { checkGroupSetting, type GroupSettingValue } from "../domain/group-settings";
import { topicForClient } from "../domain/messages";
import { realmSetting } from "../domain/realm-settings";
import { isAdmin, isGuest } from "../domain/roles";
import { toUsers } from "../events/types";
import * as store from "../store/channels";
import { hasRealmPermission } from "../store/permissions";
import { listUserSubscriptions, subscriberIds } from "../store/subscriptions";
import * as topicStore from "../store/topics";
import { findUserGroup, systemGroupIds } from "../store/user-groups";
import { activeUserIdsAmong, listUsers } from "../store/users";
import { workspaceUuidsByTopic } from "../store/workspaces";
import { topicKey } from "../domain/workspaces";
import { catchUp } from "./catch-up";
import { p as param, Param, t, type Args } from "../domain/params";
import { groupSettingChange, groupSettingValue } from "./user-groups";
import { activeChannelFolder } from "./channel-folders";
import { renderPlain } from "./render";
import { canAdministerChannel, channelAccess, accessChannelById, accessChannelByName, channelEventAudience } from "../access/channels";
import { streamObjects } from "../serializers/channels";
import { filterInOrder, mapInOrder } from "../lib/in-order";

// ---- Parameters ----

/** message_retention_days: days, or "realm_default" / "unlimited" (plain or as JSON text; "forever" before level 91). */
const retentionParam = () =>
  new Param<number | "realm_default" | "unlimited">((raw, n) => {
    const s = String(raw).replace(/^"(.*)"$/, "$1");
    if (s === "realm_default" || s === "unlimited") return s;
    if (s === "forever") return "unlimited";
    if (/^\d+$/.test(s) && Number(s) > 0) return Number(s);
    throw badValue(n, s);
  }, "string or integer");

/** One optional parameter per channel permission in `names`, each read by `read`. */
const permissionParams = <T>(read: () => Param<T>, names: readonly ChannelPermission[] = CHANNEL_PERMISSION_NAMES) =>
  Object.fromEntries(names.map((n) => [n, read().optional()])) as Record<ChannelPermission, Param<T | undefined, true>>;

/** The permissions Zulip's file lists on channel endpoints (it predates can_create_topic_group). */
export const ZULIP_CHANNEL_PERMISSIONS = CHANNEL_PERMISSION_NAMES.filter((n) => n !== "can_create_topic_group");

/** Parameters shared by the two ways of creating channels (can_create_topic_group: only the contract's create). */
export const creationParams = (settings: readonly ChannelPermission[] = CHANNEL_PERMISSION_NAMES) => ({
  announce: param.bool().optional(false),
  invite_only: param.bool().optional(false),
  is_web_public: param.bool().optional(false),
  is_default_stream: param.bool().optional(false),
  history_public_to_subscribers: param.bool().optional(),
  message_retention_days: retentionParam().optional(),
  topics_policy: param.enum(TOPICS_POLICIES).optional(),
  folder_id: param.json(t.nullable(t.int())).optional(),
  send_new_subscription_messages: param.bool().optional(true),
  ...permissionParams(() => param.json(groupSettingValue), settings),
});
export type CreationArgs = Args<ReturnType<typeof creationParams>>;

/** The permission values given among a request's parameters. */
export const givenPermissions = <T>(a: Partial<Record<ChannelPermission, T>>) =>
  Object.fromEntries(CHANNEL_PERMISSION_NAMES.map((n) => [n, a[n]]).filter(([, v]) => v !== undefined)) as Partial<Record<ChannelPermission, T>>;

export const getStreamsParams = {
  include_public: param.bool().optional(true),
  include_web_public: param.bool().optional(false),
  include_subscribed: param.bool().optional(true),
  exclude_archived: param.bool().optional(true),
  include_all_active: param.bool().optional(false),
  include_all: param.bool().optional(false),
  include_default: param.bool().optional(false),
  include_owner_subscribed: param.bool().optional(false),
  include_can_access_content: param.bool().optional(false),
};

/** GET /streams: the channels the caller asks for and may see. */
export async function getStreams(app: App, realm: RealmRow, user: UserRow, a: Args<typeof getStreamsParams>) {
  if ((a.include_all_active || a.include_all) && !isAdmin(user.role)) throw notAuthorizedForQuery();
  const subs = new Map((await listUserSubscriptions(app.db, user.id)).filter((s) => s.active).map((s) => [s.channelId, s]));
  const defaults = new Set(await store.listDefaultChannelIds(app.db, realm.id));
  const ownerSubscribed = new Set<number>();
  if (a.include_owner_subscribed && user.isBot && user.botOwnerId !== null)
    for (const s of await listUserSubscriptions(app.db, user.botOwnerId)) if (s.active) ownerSubscribed.add(s.channelId);
  const list = await filterInOrder(await store.listChannels(app.db, realm.id), async (c) => {
    if (c.isArchived && a.exclude_archived) return false;
    if (a.include_all || (a.include_all_active && !c.isArchived)) return true;
    if (a.include_public && !c.inviteOnly && (!isGuest(user.role) || c.isWebPublic)) return true;
    if (a.include_web_public && c.isWebPublic) return true;
    if (a.include_subscribed && subs.has(c.id)) return true;
    if (a.include_default && defaults.has(c.id)) return true;
    if (ownerSubscribed.has(c.id)) return true;
    if (a.include_can_access_content && (await channelAccess(app, user, c)).content) return true;
    return false;
  });
  return { streams: await streamObjects(app, realm, list, { includeDefault: true }) };
}

export async function getStream(app: App, realm: RealmRow, user: UserRow, id: number) {
  const { channel } = await accessChannelById(app, user, id, { archived: true });
  return { stream: (await streamObjects(app, realm, [channel]))[0] };
}

export async function getStreamId(app: App, user: UserRow, name: string) {
  return { stream_id: (await accessChannelByName(app, user, name)).channel.id };
}

/** GET /streams/{id}/members. */
export async function getSubscribers(app: App, user: UserRow, id: number) {
  const { channel } = await accessChannelById(app, user, id, { archived: true });
  return { subscribers: await subscriberIds(app.db, channel.id) };
}

// ---- Creating channels ----

export interface ChannelSpec {
  name: string;
  description: string;
  inviteOnly: boolean;
  isWebPublic: boolean;
  historyPublicToSubscribers?: boolean;
  messageRetentionDays?: number | null | "realm_default" | "unlimited";
  topicsPolicy?: TopicsPolicy;
  folderId?: number | null;
  isDefault: boolean;
  settings: Partial<Record<ChannelPermission, GroupSettingValue>>;
}

/** Validates one group-setting value of a channel against its rules and the realm's groups and users. */
export async function checkChannelSetting(app: App, realm: RealmRow, name: ChannelPermission, value: GroupSettingValue): Promise<GroupSettingValue> {
  const ids = await systemGroupIds(app.db, realm.id);
  return await checkGroupSetting(name, value, CHANNEL_PERMISSIONS[name], {
    group: async (id) => {
      const g = await findUserGroup(app.db, realm.id, id);
      return g && { id: g.id, name: g.name, isSystemGroup: g.isSystemGroup, deactivated: g.deactivated };
    },
    activeUser: async (id) => (await activeUserIdsAmong(app.db, realm.id, [id])).has(id),
    nobodyGroupId: ids["role:nobody"]!,
  });
}

/** Retention as stored: null follows the realm, -1 keeps forever (Zulip's special strings). */
export function retentionDays(v: ChannelSpec["messageRetentionDays"]): number | null {
  if (v === undefined || v === "realm_default" || v === null) return null;
  if (v === "unlimited") return -1;
  if (!Number.isInteger(v) || v < 1) throw badRetentionDays(v);
  return v;
}

/** The checks Zulip makes before creating a channel: permission by kind, web-public conditions, retention, folder. */
export async function checkCanCreate(app: App, realm: RealmRow, user: UserRow, spec: ChannelSpec) {
  if (spec.isWebPublic) {
    if (!realmSetting(realm, "enable_spectator_access")) throw webPublicChannelsNotEnabled();
    if (!(await hasRealmPermission(app.db, realm, user, "can_create_web_public_channel_group"))) throw insufficientPermission();
  } else if (spec.inviteOnly) {
    if (!(await hasRealmPermission(app.db, realm, user, "can_create_private_channel_group"))) throw insufficientPermission();
  } else if (!(await hasRealmPermission(app.db, realm, user, "can_create_public_channel_group"))) throw insufficientPermission();
  if (spec.messageRetentionDays !== undefined && spec.messageRetentionDays !== "realm_default" && user.role !== 100) throw mustBeOwner();
  if (spec.isDefault && !isAdmin(user.role)) throw mustBeAdmin();
  if (spec.isDefault && spec.inviteOnly) throw defaultChannelCannotBePrivate();
  if (spec.folderId != null) await activeChannelFolder(app, realm.id, spec.folderId);
}

/** Inserts a channel (inside the caller's transaction) and announces it to those who may see it. */
export async function insertChannelTx(app: App, tx: Tx, realm: RealmRow, creator: UserRow | null, spec: ChannelSpec): Promise<ChannelRow> {
  const name = checkChannelName(spec.name, app.config.limits.maxStreamNameLength);
  if (await store.findChannelByName(tx.db, realm.id, name)) throw channelAlreadyExists(name);
  const description = cleanDescription(spec.description);
  const historyPublic = spec.inviteOnly ? (spec.historyPublicToSubscribers ?? false) : true;
  const settings: Record<string, unknown> = {};
  for (const [n, v] of Object.entries(spec.settings)) if (v !== undefined) settings[n] = await checkChannelSetting(app, realm, n as ChannelPermission, v);
  if (
    spec.inviteOnly &&
    !historyPublic &&
    settings.can_create_topic_group !== undefined &&
    settings.can_create_topic_group !== (await systemGroupIds(tx.db, realm.id))["role:everyone"]
  )
    throw canCreateTopicGroupMust();
  const c = await store.insertChannel(tx.db, {
    realmId: realm.id,
    name,
    description,
    renderedDescription: await renderPlain(app, realm, description),
    dateCreated: app.now(),
    creatorId: creator?.id ?? null,
    inviteOnly: spec.inviteOnly,
    isWebPublic: spec.isWebPublic,
    historyPublicToSubscribers: spec.isWebPublic ? true : historyPublic,
    messageRetentionDays: retentionDays(spec.messageRetentionDays),
    topicsPolicy: spec.topicsPolicy ?? "inherit",
    folderId: spec.folderId ?? null,
    settings,
  });
  if (spec.isDefault) await store.addDefaultChannel(tx.db, realm.id, c.id);
  tx.emit({ type: "stream", op: "create", streams: await streamObjects(app, realm, [c]) }, await channelEventAudience(app, c));
  if (spec.isDefault)
    tx.emit({ type: "default_streams", default_streams: await store.listDefaultChannelIds(tx.db, realm.id) }, toUsers(await activeRealmUserIds(app, realm.id)));
  return c;
}

export const activeRealmUserIds = async (app: App, realmId: number) => (await listUsers(app.db, realmId)).filter((u) => u.isActive).map((u) => u.id);

// ---- Changing channels ----

export const updateChannelParams = {
  description: param.str().optional(),
  new_name: param.str().optional(),
  is_private: param.bool().optional(),
  is_web_public: param.bool().optional(),
  history_public_to_subscribers: param.bool().optional(),
  is_default_stream: param.bool().optional(),
  message_retention_days: retentionParam().optional(),
  is_archived: param.bool().optional(),
  folder_id: param.json(t.nullable(t.int())).optional(),
  topics_policy: param.enum(TOPICS_POLICIES).optional(),
  ...permissionParams(() => param.json(groupSettingChange), ZULIP_CHANNEL_PERMISSIONS),
};

/** PATCH /streams/{id}: every property change is one stream/update event, as Zulip sends them. */
export async function updateChannel(app: App, realm: RealmRow, user: UserRow, id: number, p: Args<typeof updateChannelParams>) {
  const a = await accessChannelById(app, user, id, { archived: true });
  let c = a.channel;
  const admin = await canAdministerChannel(app, user, c);
  if (!admin) throw insufficientPermission();
  if (c.isArchived && p.is_archived !== false) throw channelArchived();
  if (p.message_retention_days !== undefined && user.role !== 100) throw mustBeOwner();
  if (p.is_web_public && !realmSetting(realm, "enable_spectator_access")) throw webPublicChannelsNotEnabled();
  if (p.is_web_public && !(await hasRealmPermission(app.db, realm, user, "can_create_web_public_channel_group"))) throw insufficientPermission();
  if (p.is_default_stream !== undefined && !isAdmin(user.role)) throw mustBeAdmin();
  // A folder that is not archived, or null: out of its folder.
  if (p.folder_id != null) await activeChannelFolder(app, realm.id, p.folder_id);
  const settings: Partial<Record<ChannelPermission, GroupSettingValue>> = {};
  for (const [n, v] of Object.entries(givenPermissions(p)))
    settings[n as ChannelPermission] = await checkChannelSetting(app, realm, n as ChannelPermission, v.new);
  if (p.topics_policy === "empty_topic_only" && (await topicStore.hasNamedTopics(app.db, c.recipientId))) throw enableConfigurationAllMessagesChannel();
  const name = p.new_name !== undefined ? checkChannelName(p.new_name, app.config.limits.maxStreamNameLength) : undefined;
  if (name !== undefined && name !== c.name) {
    const other = await store.findChannelByName(app.db, realm.id, name);
    if (other && other.id !== c.id) throw channelAlreadyExists(name);
  }
  return await app.tx(async (tx) => {
    const before = c;
    const audience = async () => await channelEventAudience(app, c);
    const emit = async (property: string, value: unknown, extra: Record<string, unknown> = {}) =>
      tx.emit({ type: "stream", op: "update", stream_id: c.id, name: before.name, property, value, ...extra }, await audience());
    if (p.is_archived === false && c.isArchived) {
      c = await store.updateChannel(tx.db, c.id, { isArchived: false });
      tx.emit({ type: "stream", op: "create", streams: await streamObjects(app, realm, [c]) }, await audience());
    }
    if (name !== undefined && name !== c.name) {
      c = await store.updateChannel(tx.db, c.id, { name });
      await emit("name", name);
    }
    if (p.description !== undefined) {
      const description = cleanDescription(p.description);
      c = await store.updateChannel(tx.db, c.id, { description, renderedDescription: await renderPlain(app, realm, description) });
      await emit("description", description, { rendered_description: c.renderedDescription });
    }
    const privacy: Partial<ChannelRow> = {};
    if (p.is_private !== undefined) privacy.inviteOnly = p.is_private;
    if (p.is_web_public !== undefined) privacy.isWebPublic = p.is_web_public;
    if (p.history_public_to_subscribers !== undefined) privacy.historyPublicToSubscribers = p.history_public_to_subscribers;
    if (Object.keys(privacy).length) {
      const inviteOnly = privacy.isWebPublic ? false : (privacy.inviteOnly ?? c.inviteOnly);
      const isWebPublic = inviteOnly ? false : (privacy.isWebPublic ?? c.isWebPublic);
      const historyPublic = inviteOnly ? (privacy.historyPublicToSubscribers ?? c.historyPublicToSubscribers) : true;
      if (inviteOnly !== c.inviteOnly || isWebPublic !== c.isWebPublic || historyPublic !== c.historyPublicToSubscribers) {
        c = await store.updateChannel(tx.db, c.id, { inviteOnly, isWebPublic, historyPublicToSubscribers: historyPublic });
        await emit("invite_only", inviteOnly, { history_public_to_subscribers: historyPublic, is_web_public: isWebPublic });
        if (inviteOnly) await store.removeDefaultChannel(tx.db, realm.id, c.id);
      }
    }
    if (p.message_retention_days !== undefined) {
      c = await store.updateChannel(tx.db, c.id, { messageRetentionDays: retentionDays(p.message_retention_days) });
      await emit("message_retention_days", c.messageRetentionDays);
    }
    if (p.folder_id !== undefined) {
      c = await store.updateChannel(tx.db, c.id, { folderId: p.folder_id });
      await emit("folder_id", c.folderId);
    }
    if (p.topics_policy !== undefined) {
      c = await store.updateChannel(tx.db, c.id, { topicsPolicy: p.topics_policy });
      await emit("topics_policy", c.topicsPolicy);
    }
    for (const [n, v] of Object.entries(settings)) {
      c = await store.updateChannel(tx.db, c.id, { settings: { ...c.settings, [n]: v } });
      await emit(n, v);
    }
    if (p.is_default_stream !== undefined) {
      if (p.is_default_stream && c.inviteOnly) throw privateChannelsCannotBeMadeDefault();
      if (p.is_default_stream) await store.addDefaultChannel(tx.db, realm.id, c.id);
      else await store.removeDefaultChannel(tx.db, realm.id, c.id);
      tx.emit(
        { type: "default_streams", default_streams: await store.listDefaultChannelIds(tx.db, realm.id) },
        toUsers(await activeRealmUserIds(app, realm.id)),
      );
    }
    if (p.is_archived === true && !c.isArchived) await archiveTx(app, tx, realm, c);
    return {};
  });
}

async function archiveTx(app: App, tx: Tx, realm: RealmRow, c: ChannelRow) {
  const audience = await channelEventAudience(app, c);
  await store.updateChannel(tx.db, c.id, { isArchived: true });
  await store.removeDefaultChannel(tx.db, realm.id, c.id);
  // One event; clients without archived_channels get Zulip's `delete` shape (events/present.ts).
  tx.emit({ type: "stream", op: "update", stream_id: c.id, name: c.name, property: "is_archived", value: true }, audience);
}

/** DELETE /streams/{id}: archives the channel (its messages stay; it can be unarchived). */
export async function archiveChannel(app: App, realm: RealmRow, user: UserRow, id: number) {
  const { channel } = await accessChannelById(app, user, id, { archived: true });
  if (!(await canAdministerChannel(app, user, channel))) throw insufficientPermission();
  if (channel.isArchived) throw channelArchived();
  await app.tx(async (tx) => await archiveTx(app, tx, realm, channel));
  return {};
}

// ---- Default channels ----

export async function addDefaultStream(app: App, realm: RealmRow, user: UserRow, id: number) {
  if (!isAdmin(user.role)) throw mustBeAdmin();
  const { channel } = await accessChannelById(app, user, id);
  if (channel.inviteOnly) throw privateChannelsCannotBeMadeDefault();
  await app.tx(async (tx) => {
    await store.addDefaultChannel(tx.db, realm.id, channel.id);
    tx.emit({ type: "default_streams", default_streams: await store.listDefaultChannelIds(tx.db, realm.id) }, toUsers(await activeRealmUserIds(app, realm.id)));
  });
  return {};
}

export async function removeDefaultStream(app: App, realm: RealmRow, user: UserRow, id: number) {
  if (!isAdmin(user.role)) throw mustBeAdmin();
  const { channel } = await accessChannelById(app, user, id, { archived: true });
  await app.tx(async (tx) => {
    await store.removeDefaultChannel(tx.db, realm.id, channel.id);
    tx.emit({ type: "default_streams", default_streams: await store.listDefaultChannelIds(tx.db, realm.id) }, toUsers(await activeRealmUserIds(app, realm.id)));
  });
  return {};
}

// ---- Topics ----

/** GET /users/me/{stream_id}/topics: each topic's name and latest message id the caller may see. */
export async function listTopics(app: App, user: UserRow, id: number, allowEmptyTopicName: boolean) {
  const a = await accessChannelById(app, user, id, { content: true, archived: true });
  const c = a.channel;
  if (!c.historyPublicToSubscribers) await catchUp(app, user);
  const rows = await topicStore.listTopicsOf(app.db, c.recipientId, c.historyPublicToSubscribers ? null : user.id);
  const workspaces = await workspaceUuidsByTopic(app.db, c.realmId);
  return {
    topics: await mapInOrder(rows, async (r) => {
      const workspace = workspaces.get(topicKey(c.id, r.name));
      return {
        max_id: r.max_id,
        name: topicForClient((await topicStore.topicOfMessage(app.db, r.max_id)) ?? r.name, allowEmptyTopicName),
        ...(workspace ? { workspace_uuid: workspace } : {}),
      };
    }),
  };
}
