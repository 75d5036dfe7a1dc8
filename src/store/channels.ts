import { preparedPerDb } from "../db/prepared";
import { and, asc, eq, sql } from "drizzle-orm";
import type { Db } from "../db/client";
import { type channels, type ChannelRow } from "../db/schema";
import { tables } from "../db/engine";
import { first, all, run } from "../db/query";
import { raw } from "../db/raw";
import { idsTable, idsValue } from "../db/in-ids";
import { CHANNEL_PERMISSIONS, CHANNEL_PERMISSION_NAMES, POST_POLICY, type ChannelPermission, type ChannelStats } from "../domain/channels";
import type { GroupSettingValue } from "../domain/group-settings";
import { systemGroupIds } from "./user-groups";
import { mapInOrder } from "../lib/in-order";

export async function insertChannel(db: Db, c: Omit<typeof channels.$inferInsert, "recipientId">): Promise<ChannelRow> {
  const { channels, recipients } = tables(db);
  const r = await first(db.insert(recipients).values({ realmId: c.realmId }).returning({ id: recipients.id }));
  const row = await first(
    db
      .insert(channels)
      .values({ ...c, recipientId: r.id })
      .returning(),
  );
  await run(db.update(recipients).set({ channelId: row.id }).where(eq(recipients.id, r.id)));
  return row;
}

export const updateChannel = async (db: Db, id: number, patch: Partial<typeof channels.$inferInsert>): Promise<ChannelRow> => {
  const { channels } = tables(db);
  return (await first(db.update(channels).set(patch).where(eq(channels.id, id)).returning()))!;
};

const byId = preparedPerDb((db) => {
  const { channels } = tables(db);
  return db
    .select()
    .from(channels)
    .where(eq(channels.id, sql.placeholder("id")));
});

/** A channel by id (any realm: callers compare realm ids). Prepared once: every channel send looks it up. */
export const findChannel = async (db: Db, id: number): Promise<ChannelRow | undefined> => byId(db).get({ id });
// Every channel send looks its channel up by name: prepared once per connection.
const byName = preparedPerDb((db) => {
  const { channels } = tables(db);
  return db
    .select()
    .from(channels)
    .where(and(eq(channels.realmId, sql.placeholder("realmId")), eq(channels.name, sql.placeholder("name"))));
});

export const findChannelByName = async (db: Db, realmId: number, name: string): Promise<ChannelRow | undefined> =>
  byName(db).get({ realmId, name: name.trim() });

export const findChannelByRecipient = async (db: Db, recipientId: number): Promise<ChannelRow | undefined> => {
  const { channels } = tables(db);
  return first(db.select().from(channels).where(eq(channels.recipientId, recipientId)));
};

export const listChannels = async (db: Db, realmId: number): Promise<ChannelRow[]> => {
  const { channels } = tables(db);
  return all(db.select().from(channels).where(eq(channels.realmId, realmId)).orderBy(asc(channels.id)));
};

// ---- Permission settings ----

/** A channel's value for one permission: the stored one, or the default (system group, or its creator). */
export async function channelSetting(db: Db, c: ChannelRow, name: ChannelPermission): Promise<GroupSettingValue> {
  const stored = c.settings[name] as GroupSettingValue | undefined;
  if (stored !== undefined) return stored;
  const def = CHANNEL_PERMISSIONS[name].default;
  const ids = await systemGroupIds(db, c.realmId);
  if (def === "creator") return c.creatorId !== null ? { direct_members: [c.creatorId], direct_subgroups: [] } : ids["role:nobody"]!;
  return ids[def]!;
}

export const channelSettings = async (db: Db, c: ChannelRow) =>
  Object.fromEntries(await mapInOrder(CHANNEL_PERMISSION_NAMES, async (n) => [n, await channelSetting(db, c, n)])) as Record<
    ChannelPermission,
    GroupSettingValue
  >;

/** The legacy stream_post_policy old clients read, derived from who may send. */
async function postPolicy(db: Db, c: ChannelRow, send: GroupSettingValue): Promise<number> {
  if (typeof send !== "number") return POST_POLICY.everyone;
  const ids = await systemGroupIds(db, c.realmId);
  if (send === ids["role:administrators"]) return POST_POLICY.admins;
  if (send === ids["role:moderators"]) return POST_POLICY.moderators;
  if (send === ids["role:fullmembers"]) return POST_POLICY.fullMembers;
  return POST_POLICY.everyone;
}

// ---- Counts shown on channel objects ----

const RECENT_SECONDS = 180 * 24 * 3600;
const WEEK = 7 * 24 * 3600;
const TRAFFIC_TTL_MS = 10 * 60 * 1000;
// Weekly traffic counts every message of a week: computed at most every ten minutes per realm
// (Zulip too serves it from periodically updated analytics).
const trafficCache = new WeakMap<Db, Map<number, { at: number; counts: Map<number, number> }>>();

/** The first message id whose date_sent is at or after t (ids grow with time): a binary search of point lookups. */
export async function firstMessageIdSince(db: Db, t: number): Promise<number> {
  const s = raw(db);
  const max = (await s.get<{ id: number | null }>("SELECT MAX(id) AS id FROM messages"))?.id ?? 0;
  let lo = 1,
    hi = max + 1;
  while (lo < hi) {
    const mid = Math.floor((lo + hi) / 2);
    const r = await s.get<{ date_sent: number }>("SELECT date_sent FROM messages WHERE id >= ? ORDER BY id LIMIT 1", mid);
    if (r && r.date_sent >= t) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}

async function weeklyTraffic(db: Db, realmId: number, now: number): Promise<Map<number, number>> {
  let perDb = trafficCache.get(db);
  if (!perDb) trafficCache.set(db, (perDb = new Map()));
  const hit = perDb.get(realmId);
  if (hit && Date.now() - hit.at < TRAFFIC_TTL_MS) return hit.counts;
  const since = await firstMessageIdSince(db, now - WEEK);
  const rows = await raw(db).all<{ recipient_id: number; n: number }>(
    `SELECT m.recipient_id, COUNT(*) AS n FROM channels c JOIN messages m ON m.recipient_id = c.recipient_id AND m.id >= ?2
       WHERE c.realm_id = ?1 GROUP BY m.recipient_id`,
    realmId,
    since,
  );
  const counts = new Map(rows.map((r) => [r.recipient_id, r.n]));
  perDb.set(realmId, { at: Date.now(), counts });
  return counts;
}

/** Stats for many channels of one realm in a few grouped queries (never one query per channel). */
export async function channelStats(db: Db, realmId: number, list: ChannelRow[], now: number): Promise<Map<number, ChannelStats>> {
  const s = raw(db);
  const out = new Map<number, ChannelStats>();
  if (!list.length) return out;
  const counts = new Map(
    (
      await s.all<{ channel_id: number; n: number }>(
        `SELECT s.channel_id, COUNT(*) AS n FROM subscriptions s JOIN users u ON u.id = s.user_id AND u.is_active = true
         JOIN channels c ON c.id = s.channel_id WHERE c.realm_id = ? AND s.active = true GROUP BY s.channel_id`,
        realmId,
      )
    ).map((r) => [r.channel_id, r.n]),
  );
  const ids = idsValue(
    db,
    list.map((c) => c.recipientId),
  );
  const ends = new Map(
    (
      await s.all<{ r: number; first: number; last: number }>(
        `SELECT j.value AS r, (SELECT MIN(id) FROM messages WHERE recipient_id = j.value) AS first,
                (SELECT MAX(id) FROM messages WHERE recipient_id = j.value) AS last FROM ${idsTable(db, "?", "j")}`,
        ids,
      )
    ).map((r) => [r.r, r]),
  );
  const lastDates = new Map(
    (
      await s.all<{ r: number; d: number }>(
        `SELECT m.recipient_id AS r, m.date_sent AS d FROM ${idsTable(db, "?", "j")} JOIN messages m
         ON m.id = (SELECT MAX(id) FROM messages WHERE recipient_id = j.value)`,
        ids,
      )
    ).map((r) => [r.r, r.d]),
  );
  const traffic = await weeklyTraffic(db, realmId, now);
  const defaults = new Set(await listDefaultChannelIds(db, realmId));
  const inactive = new Set((await s.all<{ id: number }>("SELECT id FROM users WHERE realm_id = ? AND is_active = false", realmId)).map((r) => r.id));
  for (const c of list) {
    const settings = await channelSettings(db, c);
    const last = lastDates.get(c.recipientId);
    out.set(c.id, {
      subscriberCount: counts.get(c.id) ?? 0,
      firstMessageId: ends.get(c.recipientId)?.first ?? null,
      weeklyTraffic: now - c.dateCreated < WEEK ? null : (traffic.get(c.recipientId) ?? 0),
      isRecentlyActive: (last ?? c.dateCreated) >= now - RECENT_SECONDS,
      isDefault: defaults.has(c.id),
      settings,
      inactiveUsers: inactive,
      postPolicy: await postPolicy(db, c, settings.can_send_message_group),
    });
  }
  return out;
}

// ---- Default channels ----

export const listDefaultChannelIds = async (db: Db, realmId: number): Promise<number[]> => {
  const { defaultChannels } = tables(db);
  return (
    await all(
      db.select({ id: defaultChannels.channelId }).from(defaultChannels).where(eq(defaultChannels.realmId, realmId)).orderBy(asc(defaultChannels.channelId)),
    )
  ).map((r) => r.id);
};

export const addDefaultChannel = async (db: Db, realmId: number, channelId: number) => {
  const { defaultChannels } = tables(db);
  return run(db.insert(defaultChannels).values({ realmId, channelId }).onConflictDoNothing());
};

export const removeDefaultChannel = async (db: Db, realmId: number, channelId: number) => {
  const { defaultChannels } = tables(db);
  return run(db.delete(defaultChannels).where(and(eq(defaultChannels.realmId, realmId), eq(defaultChannels.channelId, channelId))));
};
