import { and, asc, eq } from "drizzle-orm";
import type { Db } from "../db/client";
import { inIds, idsTable, idsValue } from "../db/in-ids";
import { type userGroups, type UserGroupRow } from "../db/schema";
import { tables } from "../db/engine";
import { first, all, run } from "../db/query";
import { raw } from "../db/raw";
import type { GroupSettingValue } from "../domain/group-settings";

/** The bun:sqlite handle behind drizzle, for the recursive queries drizzle cannot express. */

export const insertUserGroup = async (db: Db, g: typeof userGroups.$inferInsert): Promise<UserGroupRow> => {
  const { userGroups } = tables(db);
  return first(db.insert(userGroups).values(g).returning());
};

export const updateUserGroup = async (db: Db, id: number, patch: Partial<typeof userGroups.$inferInsert>): Promise<UserGroupRow> => {
  const { userGroups } = tables(db);
  return (await first(db.update(userGroups).set(patch).where(eq(userGroups.id, id)).returning()))!;
};

export const findUserGroup = async (db: Db, realmId: number, id: number): Promise<UserGroupRow | undefined> => {
  const { userGroups } = tables(db);
  return first(
    db
      .select()
      .from(userGroups)
      .where(and(eq(userGroups.id, id), eq(userGroups.realmId, realmId))),
  );
};

export const findUserGroupByName = async (db: Db, realmId: number, name: string): Promise<UserGroupRow | undefined> => {
  const { userGroups } = tables(db);
  return first(
    db
      .select()
      .from(userGroups)
      .where(and(eq(userGroups.realmId, realmId), eq(userGroups.name, name))),
  );
};

export const listUserGroups = async (db: Db, realmId: number, includeDeactivated = true): Promise<UserGroupRow[]> => {
  const { userGroups } = tables(db);
  return all(
    db
      .select()
      .from(userGroups)
      .where(includeDeactivated ? eq(userGroups.realmId, realmId) : and(eq(userGroups.realmId, realmId), eq(userGroups.deactivated, false)))
      .orderBy(asc(userGroups.id)),
  );
};

export const listSystemGroups = async (db: Db, realmId: number): Promise<UserGroupRow[]> => {
  const { userGroups } = tables(db);
  return all(
    db
      .select()
      .from(userGroups)
      .where(and(eq(userGroups.realmId, realmId), eq(userGroups.isSystemGroup, true))),
  );
};

// System groups are made with their realm and never change: their ids are looked up once per realm.
const systemIdCache = new WeakMap<Db, Map<number, Record<string, number>>>();

/** The realm's system group ids by name (role:owners ... role:nobody). */
export async function systemGroupIds(db: Db, realmId: number): Promise<Record<string, number>> {
  let perDb = systemIdCache.get(db);
  if (!perDb) systemIdCache.set(db, (perDb = new Map()));
  let ids = perDb.get(realmId);
  if (!ids) {
    ids = Object.fromEntries((await listSystemGroups(db, realmId)).map((g) => [g.name, g.id]));
    if (Object.keys(ids).length) perDb.set(realmId, ids);
  }
  return ids;
}

export async function addGroupMembers(db: Db, groupId: number, userIds: number[]) {
  const { userGroupMembers } = tables(db);
  if (userIds.length)
    await run(
      db
        .insert(userGroupMembers)
        .values(userIds.map((userId) => ({ groupId, userId })))
        .onConflictDoNothing(),
    );
}

export async function removeGroupMembers(db: Db, groupId: number, userIds: number[]) {
  const { userGroupMembers } = tables(db);
  if (userIds.length) await run(db.delete(userGroupMembers).where(and(eq(userGroupMembers.groupId, groupId), inIds(db, userGroupMembers.userId, userIds))));
}

export async function addSubgroups(db: Db, groupId: number, subgroupIds: number[]) {
  const { userGroupSubgroups } = tables(db);
  if (subgroupIds.length)
    await run(
      db
        .insert(userGroupSubgroups)
        .values(subgroupIds.map((subgroupId) => ({ groupId, subgroupId })))
        .onConflictDoNothing(),
    );
}

export async function removeSubgroups(db: Db, groupId: number, subgroupIds: number[]) {
  const { userGroupSubgroups } = tables(db);
  if (subgroupIds.length)
    await run(db.delete(userGroupSubgroups).where(and(eq(userGroupSubgroups.groupId, groupId), inIds(db, userGroupSubgroups.subgroupId, subgroupIds))));
}

/** Ids of the groups a user is a direct member of. */
export const listGroupIdsOfUser = async (db: Db, userId: number): Promise<number[]> => {
  const { userGroupMembers } = tables(db);
  return (await all(db.select({ id: userGroupMembers.groupId }).from(userGroupMembers).where(eq(userGroupMembers.userId, userId)))).map((r) => r.id);
};

/** Direct members of a group, all of them (deactivated users included) or only active ones. */
export async function listDirectMemberIds(db: Db, groupId: number, activeOnly: boolean): Promise<number[]> {
  const sql = activeOnly
    ? "SELECT m.user_id AS id FROM user_group_members m JOIN users u ON u.id = m.user_id WHERE m.group_id = ? AND u.is_active = true ORDER BY m.user_id"
    : "SELECT user_id AS id FROM user_group_members WHERE group_id = ? ORDER BY user_id";
  return (await raw(db).all<{ id: number }>(sql, groupId)).map((r) => r.id);
}

export const listDirectSubgroupIds = async (db: Db, groupId: number): Promise<number[]> =>
  (await raw(db).all<{ id: number }>("SELECT subgroup_id AS id FROM user_group_subgroups WHERE group_id = ? ORDER BY subgroup_id", groupId)).map((r) => r.id);

// The groups reachable from a set of groups through subgroup links, the starting groups included.
const CLOSURE = (db: Db, n: number) =>
  `WITH RECURSIVE g(id) AS (SELECT value FROM ${idsTable(db, `?${n}`)} UNION SELECT s.subgroup_id FROM user_group_subgroups s JOIN g ON s.group_id = g.id)`;

/** Every group nested anywhere below this one (its strict subgroups, recursively). */
export const listRecursiveSubgroupIds = async (db: Db, groupId: number): Promise<number[]> =>
  (
    await raw(db).all<{ id: number }>(
      `WITH RECURSIVE g(id) AS (SELECT subgroup_id FROM user_group_subgroups WHERE group_id = ?1
         UNION SELECT s.subgroup_id FROM user_group_subgroups s JOIN g ON s.group_id = g.id)
       SELECT id FROM g ORDER BY id`,
      groupId,
    )
  ).map((r) => r.id);

/** The given groups and everything nested in them. */
export const groupClosure = async (db: Db, groupIds: number[]): Promise<number[]> =>
  (await raw(db).all<{ id: number }>(`${CLOSURE(db, 1)} SELECT id FROM g`, idsValue(db, groupIds))).map((r) => r.id);

/** Active users in the group directly or through nested subgroups. */
export const listRecursiveMemberIds = async (db: Db, groupId: number): Promise<number[]> =>
  (
    await raw(db).all<{ id: number }>(
      `${CLOSURE(db, 1)} SELECT DISTINCT m.user_id AS id FROM user_group_members m JOIN users u ON u.id = m.user_id
       WHERE m.group_id IN (SELECT id FROM g) AND u.is_active = true ORDER BY m.user_id`,
      idsValue(db, [groupId]),
    )
  ).map((r) => r.id);

/**
 * Whether a user is in any of the groups, directly or through nested subgroups: one recursive query
 * that walks only the groups' subgroup links and then probes the (user_id) index.
 * Deactivated users are nobody's members; callers pass only active users or check first.
 */
export async function isUserInGroups(db: Db, userId: number, groupIds: readonly number[], directOnly = false): Promise<boolean> {
  if (!groupIds.length) return false;
  const q = directOnly
    ? `SELECT 1 FROM user_group_members WHERE user_id = ?2 AND group_id IN (SELECT value FROM ${idsTable(db, "?1")}) LIMIT 1`
    : `${CLOSURE(db, 1)} SELECT 1 FROM user_group_members m WHERE m.user_id = ?2 AND m.group_id IN (SELECT id FROM g) LIMIT 1`;
  return !!(await raw(db).get(q, idsValue(db, groupIds), userId));
}

export const isUserInGroup = async (db: Db, userId: number, groupId: number, directOnly = false) => await isUserInGroups(db, userId, [groupId], directOnly);

/** Every (group, active member) pair of a realm, for register. */
export const listRealmMemberships = async (db: Db, realmId: number): Promise<{ g: number; u: number }[]> =>
  await raw(db).all<{ g: number; u: number }>(
    `SELECT m.group_id AS g, m.user_id AS u FROM user_group_members m JOIN user_groups ug ON ug.id = m.group_id
       JOIN users u ON u.id = m.user_id WHERE ug.realm_id = ? AND u.is_active = true ORDER BY m.user_id`,
    realmId,
  );

/** Every (group, subgroup) link of a realm, for register. */
export const listRealmSubgroupLinks = async (db: Db, realmId: number): Promise<{ g: number; s: number }[]> =>
  await raw(db).all<{ g: number; s: number }>(
    `SELECT s.group_id AS g, s.subgroup_id AS s FROM user_group_subgroups s JOIN user_groups ug ON ug.id = s.group_id
       WHERE ug.realm_id = ? ORDER BY s.subgroup_id`,
    realmId,
  );

/** Active groups that list this group as a direct subgroup. */
export const listActiveSupergroupIds = async (db: Db, groupId: number): Promise<number[]> =>
  (
    await raw(db).all<{ id: number }>(
      `SELECT s.group_id AS id FROM user_group_subgroups s JOIN user_groups g ON g.id = s.group_id
       WHERE s.subgroup_id = ? AND g.deactivated = false ORDER BY s.group_id`,
      groupId,
    )
  ).map((r) => r.id);

/** The stored settings value, if any (user groups store all six at creation; system groups none). */
export const storedGroupSetting = (g: UserGroupRow, name: string): GroupSettingValue | undefined => g.settings[name] as GroupSettingValue | undefined;
