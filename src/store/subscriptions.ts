import { and, eq, sql } from "drizzle-orm";
import type { Db } from "../db/client";
import { inIds } from "../db/in-ids";
import { preparedPerDb } from "../db/prepared";
import { type subscriptions, type SubscriptionRow } from "../db/schema";
import { tables } from "../db/engine";
import { all, run } from "../db/query";
import { raw } from "../db/raw";
import { writePendingRows, lastMessageId } from "./lazy-delivery";

const byKey = preparedPerDb((db) => {
  const { subscriptions } = tables(db);
  return db
    .select()
    .from(subscriptions)
    .where(and(eq(subscriptions.userId, sql.placeholder("userId")), eq(subscriptions.channelId, sql.placeholder("channelId"))));
});

/** A user's subscription row for a channel (prepared once: every channel access check reads it). */
export const findSubscription = async (db: Db, userId: number, channelId: number): Promise<SubscriptionRow | undefined> => byKey(db).get({ userId, channelId });

export const isSubscribed = async (db: Db, userId: number, channelId: number): Promise<boolean> =>
  !!(await raw(db).get("SELECT 1 FROM subscriptions WHERE user_id = ? AND channel_id = ? AND active = true", userId, channelId));

/** Every subscription row of a user, active or not. */
export const listUserSubscriptions = async (db: Db, userId: number): Promise<SubscriptionRow[]> => {
  const { subscriptions } = tables(db);
  return all(db.select().from(subscriptions).where(eq(subscriptions.userId, userId)));
};

/** Active subscribers of a channel who are active users: a channel message's recipients. */
export const subscriberIds = async (db: Db, channelId: number): Promise<number[]> =>
  (
    await raw(db).all<{ id: number }>(
      "SELECT s.user_id AS id FROM subscriptions s JOIN users u ON u.id = s.user_id WHERE s.channel_id = ? AND s.active = true AND u.is_active = true ORDER BY s.user_id",
      channelId,
    )
  ).map((r) => r.id);

/** Active subscribers of every channel of a realm, in one query. */
export async function realmSubscribers(db: Db, realmId: number): Promise<Map<number, number[]>> {
  const out = new Map<number, number[]>();
  const rows = await raw(db).all<{ c: number; u: number }>(
    `SELECT s.channel_id AS c, s.user_id AS u FROM subscriptions s JOIN channels ch ON ch.id = s.channel_id
       JOIN users u ON u.id = s.user_id WHERE ch.realm_id = ? AND s.active = true AND u.is_active = true ORDER BY s.user_id`,
    realmId,
  );
  for (const r of rows) {
    let l = out.get(r.c);
    if (!l) out.set(r.c, (l = []));
    l.push(r.u);
  }
  return out;
}

/** Subscribes (rows not active now), reactivating earlier rows so their personal properties come back.
 * A subscription receives the messages sent from now on. */
export async function activateSubscriptions(db: Db, rows: { userId: number; channelId: number; color: string }[]) {
  const { subscriptions } = tables(db);
  if (!rows.length) return;
  const deliveredThrough = await lastMessageId(db);
  await run(
    db
      .insert(subscriptions)
      .values(rows.map((r) => ({ ...r, deliveredThrough })))
      .onConflictDoUpdate({ target: [subscriptions.userId, subscriptions.channelId], set: { active: true, deliveredThrough } }),
  );
}

/** Unsubscribes, after writing the rows of the messages they received while subscribed. */
export async function deactivateSubscriptions(db: Db, channelId: number, userIds: number[]) {
  const { subscriptions } = tables(db);
  await writePendingRows(db, { channelIds: [channelId], userIds });
  await run(
    db
      .update(subscriptions)
      .set({ active: false })
      .where(and(eq(subscriptions.channelId, channelId), inIds(db, subscriptions.userId, userIds))),
  );
}

export const updateSubscription = async (db: Db, userId: number, channelId: number, patch: Partial<typeof subscriptions.$inferInsert>) => {
  const { subscriptions } = tables(db);
  return run(
    db
      .update(subscriptions)
      .set(patch)
      .where(and(eq(subscriptions.userId, userId), eq(subscriptions.channelId, channelId))),
  );
};

/** Colors a user already gave their channels (new subscriptions pick an unused one). */
export const usedColors = async (db: Db, userId: number): Promise<Set<string>> =>
  new Set((await raw(db).all<{ color: string }>("SELECT color FROM subscriptions WHERE user_id = ?", userId)).map((r) => r.color));

/** The channels a user muted; with `activeOnly`, only among those they are still subscribed to. */
export const mutedChannelIds = async (db: Db, userId: number, o: { activeOnly: boolean }): Promise<number[]> =>
  (
    await raw(db).all<{ c: number }>(
      `SELECT channel_id AS c FROM subscriptions WHERE user_id = ?${o.activeOnly ? " AND active = true" : ""} AND is_muted = true`,
      userId,
    )
  ).map((r) => r.c);

/** The recipient ids of the channels a user is subscribed to and muted. */
export const mutedChannelRecipientIds = async (db: Db, userId: number): Promise<number[]> =>
  (
    await raw(db).all<{ r: number }>(
      "SELECT c.recipient_id AS r FROM subscriptions s JOIN channels c ON c.id = s.channel_id WHERE s.user_id = ? AND s.active = true AND s.is_muted = true",
      userId,
    )
  ).map((r) => r.r);
