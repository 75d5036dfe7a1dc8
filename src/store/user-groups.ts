import { and, eq, inArray } from "drizzle-orm";
import type { Db } from "../db/client";
import { userGroupMembers, userGroups, userGroupSubgroups, type UserGroupRow } from "../db/schema";

export const insertUserGroup = (db: Db, g: typeof userGroups.$inferInsert): UserGroupRow =>
  db.insert(userGroups).values(g).returning().get();

export const findUserGroupByName = (db: Db, realmId: number, name: string): UserGroupRow | undefined =>
  db.select().from(userGroups).where(and(eq(userGroups.realmId, realmId), eq(userGroups.name, name))).get();

export const listSystemGroups = (db: Db, realmId: number): UserGroupRow[] =>
  db.select().from(userGroups).where(and(eq(userGroups.realmId, realmId), eq(userGroups.isSystemGroup, true))).all();

export function addGroupMembers(db: Db, groupId: number, userIds: number[]) {
  if (userIds.length) db.insert(userGroupMembers).values(userIds.map((userId) => ({ groupId, userId }))).onConflictDoNothing().run();
}

export function removeGroupMembers(db: Db, groupId: number, userIds: number[]) {
  if (userIds.length)
    db.delete(userGroupMembers).where(and(eq(userGroupMembers.groupId, groupId), inArray(userGroupMembers.userId, userIds))).run();
}

export function addSubgroups(db: Db, groupId: number, subgroupIds: number[]) {
  if (subgroupIds.length)
    db.insert(userGroupSubgroups).values(subgroupIds.map((subgroupId) => ({ groupId, subgroupId }))).onConflictDoNothing().run();
}

/** Ids of the groups a user is a direct member of. */
export const listGroupIdsOfUser = (db: Db, userId: number): number[] =>
  db.select({ id: userGroupMembers.groupId }).from(userGroupMembers).where(eq(userGroupMembers.userId, userId)).all().map((r) => r.id);

/**
 * Whether a user is in a group, directly or through nested subgroups (one recursive query).
 * Deactivated users are nobody's members; callers pass only active users or check first.
 */
export function isUserInGroup(db: Db, userId: number, groupId: number, directOnly = false): boolean {
  const sqlite = (db as any).$client as import("bun:sqlite").Database;
  if (directOnly)
    return !!sqlite.query("SELECT 1 FROM user_group_members WHERE group_id = ? AND user_id = ?").get(groupId, userId);
  return !!sqlite
    .query(
      `WITH RECURSIVE g(id) AS (SELECT ? UNION SELECT s.subgroup_id FROM user_group_subgroups s JOIN g ON s.group_id = g.id)
       SELECT 1 FROM user_group_members m WHERE m.user_id = ? AND m.group_id IN (SELECT id FROM g) LIMIT 1`,
    )
    .get(groupId, userId);
}
