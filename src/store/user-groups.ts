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
