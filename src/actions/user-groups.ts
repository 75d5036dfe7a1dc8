import type { App } from "../context";
import type { Db } from "../db/client";
import type { RealmRow, UserGroupRow, UserRow } from "../db/schema";
import type { Tx } from "../db/tx";
import {
  alreadyMember,
  alreadySubgroup,
  canOnlyChangeNameDeactivated,
  groupDeactivated,
  groupExists,
  groupInUse,
  insufficientPermission,
  invalidUserGroup,
  invalidUserGroupId,
  invalidUserId,
  noNewDataSupplied,
  noSuchUser,
  notForGuests,
  nothingToDoForMembers,
  nothingToDoForSubgroups,
  notMember,
  notSubgroup,
  previousValueMismatch,
  subgroupCycle,
} from "../domain/errors";
import {
  canonicalGroupSetting,
  checkGroupName,
  checkGroupSetting,
  presentGroupSetting,
  sameGroupSetting,
  USER_GROUP_PERMISSION_NAMES,
  USER_GROUP_PERMISSIONS,
  type GroupSettingLookup,
  type GroupSettingValue,
  type UserGroupPermission,
} from "../domain/group-settings";
import { REALM_GROUP_SETTING_NAMES } from "../domain/realm-settings";
import { isGuest } from "../domain/roles";
import { toRealm } from "../events/types";
import { hasRealmPermission, inGroupSetting, userGroupSetting } from "../store/permissions";
import { channelSettings, listChannels } from "../store/channels";
import { realmGroupSetting } from "../store/realm-settings";
import * as store from "../store/user-groups";
import { activeUserIdsAmong, findUserById, listInactiveUserIds } from "../store/users";
import { p, t, type Args, type Param } from "../domain/params";
import { realmGroupObjects, userGroupObject } from "../serializers/user-groups";
import { filterInOrder } from "../lib/in-order";

/** A group-setting value in either form (contract: "Group-setting value"). */
export const groupSettingValue = t.union<GroupSettingValue>(t.int(), t.object({ direct_members: t.list(t.int()), direct_subgroups: t.list(t.int()) }));
/** A change of one: the new value and, optionally, the value the client believes is current. */
export const groupSettingChange = t.object({ new: groupSettingValue, old: t.optional(groupSettingValue) });
export type SettingChange = { new: GroupSettingValue; old?: GroupSettingValue };

/** One optional parameter per group permission, each read by `param`. */
const permissionParams = <T>(param: () => Param<T>) =>
  Object.fromEntries(USER_GROUP_PERMISSION_NAMES.map((n) => [n, param().optional()])) as Record<UserGroupPermission, Param<T | undefined, true>>;

/** Lookups group-setting validation needs, within one realm. */
export async function groupSettingLookup(db: Db, realm: RealmRow): Promise<GroupSettingLookup> {
  return {
    group: async (id) => await store.findUserGroup(db, realm.id, id),
    activeUser: async (id) => (await activeUserIdsAmong(db, realm.id, [id])).has(id),
    nobodyGroupId: (await store.systemGroupIds(db, realm.id))["role:nobody"]!,
  };
}

/** Guests may not use the group endpoints at all; bots may (level 496). */
function checkMember(user: UserRow) {
  if (isGuest(user.role)) throw notForGuests();
}

async function groupInRealm(db: Db, realm: RealmRow, id: number, allowDeactivated = false): Promise<UserGroupRow> {
  const g = await store.findUserGroup(db, realm.id, id);
  if (!g) throw invalidUserGroup();
  if (g.deactivated && !allowDeactivated) throw groupDeactivated();
  return g;
}

/**
 * A group the user may change for this purpose: never a system group; anyone in the realm's
 * can_manage_all_groups or the group's can_manage_group may do anything; otherwise the named setting.
 */
export async function groupForUpdate(
  db: Db,
  realm: RealmRow,
  user: UserRow,
  id: number,
  purpose: UserGroupPermission[],
  allowDeactivated = false,
): Promise<UserGroupRow> {
  checkMember(user);
  const g = await groupInRealm(db, realm, id, allowDeactivated);
  if (g.isSystemGroup) throw insufficientPermission();
  if (await canManage(db, realm, user, g)) return g;
  for (const p of purpose) if (await inGroupSetting(db, user, await userGroupSetting(db, g, p), USER_GROUP_PERMISSIONS[p])) return g;
  throw insufficientPermission();
}

const canManage = async (db: Db, realm: RealmRow, user: UserRow, g: UserGroupRow) =>
  (await hasRealmPermission(db, realm, user, "can_manage_all_groups")) ||
  (await inGroupSetting(db, user, await userGroupSetting(db, g, "can_manage_group"), USER_GROUP_PERMISSIONS.can_manage_group));

/** The given user ids, each an active user of the realm, or `Invalid user ID: <id>`. */
async function checkUserIds(db: Db, realm: RealmRow, ids: number[]): Promise<number[]> {
  const found = await activeUserIdsAmong(db, realm.id, ids);
  const missing = ids.find((id) => !found.has(id));
  if (missing !== undefined) throw invalidUserId(missing);
  return [...new Set(ids)];
}

/** Groups that may become subgroups: in the realm and active. */
async function checkSubgroupIds(db: Db, realm: RealmRow, ids: number[]): Promise<number[]> {
  for (const id of ids) {
    const g = await store.findUserGroup(db, realm.id, id);
    if (!g) throw invalidUserGroupId(id);
    if (g.deactivated) throw groupDeactivated();
  }
  return [...new Set(ids)];
}

/** Refuses subgroups that would make a cycle: the group must not be reachable from any of them. */
async function checkNoCycle(db: Db, groupId: number, subgroupIds: number[]) {
  if ((await store.groupClosure(db, subgroupIds)).includes(groupId)) throw subgroupCycle(groupId);
}

export const createUserGroupParams = {
  name: p.str(),
  description: p.str(),
  members: p.intList(),
  subgroups: p.intList().optional(() => []),
  ...permissionParams(() => p.json(groupSettingValue)),
};

/** POST /user_groups/create. */
export async function createUserGroup(app: App, realm: RealmRow, user: UserRow, a: Args<typeof createUserGroupParams>): Promise<{ group_id: number }> {
  const db = app.db;
  checkMember(user);
  if (!(await hasRealmPermission(db, realm, user, "can_create_groups"))) throw insufficientPermission();
  const name = checkGroupName(a.name);
  if (await store.findUserGroupByName(db, realm.id, name)) throw groupExists(name);
  const members = await checkUserIds(db, realm, a.members);
  const subgroups = await checkSubgroupIds(db, realm, a.subgroups ?? []);
  const lookup = await groupSettingLookup(db, realm);
  const ids = await store.systemGroupIds(db, realm.id);
  const settings: Record<string, GroupSettingValue> = {};
  for (const n of USER_GROUP_PERMISSION_NAMES) {
    const given = a[n];
    const def = USER_GROUP_PERMISSIONS[n].default;
    settings[n] =
      given !== undefined
        ? await checkGroupSetting(n, given, USER_GROUP_PERMISSIONS[n], lookup)
        : def === "creator"
          ? { direct_members: [user.id], direct_subgroups: [] }
          : ids[def]!;
  }
  return await app.tx(async (tx) => {
    const g = await store.insertUserGroup(tx.db, {
      realmId: realm.id,
      name,
      description: a.description,
      creatorId: user.id,
      dateCreated: app.now(),
      settings,
    });
    await store.addGroupMembers(tx.db, g.id, members);
    await store.addSubgroups(tx.db, g.id, subgroups);
    tx.emit({ type: "user_group", op: "add", group: await userGroupObject(tx.db, g) }, toRealm(realm.id));
    return { group_id: g.id };
  });
}

/** GET /user_groups. */
export async function listUserGroupsFor(app: App, realm: RealmRow, user: UserRow, includeDeactivated: boolean) {
  checkMember(user);
  return { user_groups: await realmGroupObjects(app.db, realm.id, includeDeactivated) };
}

export const updateUserGroupParams = {
  name: p.str().optional(),
  description: p.str().optional(),
  deactivated: p.bool().optional(),
  ...permissionParams(() => p.json(groupSettingChange)),
};

/** PATCH /user_groups/{id}: name, description, permission settings, reactivation. */
export async function updateUserGroupProps(app: App, realm: RealmRow, user: UserRow, id: number, a: Args<typeof updateUserGroupParams>) {
  const db = app.db;
  const changes = USER_GROUP_PERMISSION_NAMES.flatMap((n) => (a[n] === undefined ? [] : [[n, a[n]] as [UserGroupPermission, SettingChange]]));
  if (a.name === undefined && a.description === undefined && a.deactivated === undefined && !changes.length) throw noNewDataSupplied();
  const g = await groupForUpdate(db, realm, user, id, ["can_manage_group"], true);
  if (a.deactivated === true && !g.deactivated) await checkNotInUse(db, realm, g);
  const deactivatedAfter = a.deactivated ?? g.deactivated;
  if (deactivatedAfter && (a.description !== undefined || changes.length)) throw canOnlyChangeNameDeactivated();
  const data: Record<string, unknown> = {};
  const patch: Partial<UserGroupRow> = {};
  if (a.name !== undefined && a.name !== g.name) {
    const name = checkGroupName(a.name);
    if (await store.findUserGroupByName(db, realm.id, name)) throw groupExists(name);
    patch.name = data.name = name;
  }
  if (a.description !== undefined && a.description !== g.description) patch.description = data.description = a.description;
  if (changes.length) {
    const lookup = await groupSettingLookup(db, realm);
    const settings = { ...g.settings };
    for (const [n, change] of changes) {
      const current = await userGroupSetting(db, g, n);
      if (change.old !== undefined && !sameGroupSetting(canonicalGroupSetting(change.old, lookup.nobodyGroupId), current)) throw previousValueMismatch();
      const next = await checkGroupSetting(n, change.new, USER_GROUP_PERMISSIONS[n], lookup);
      if (sameGroupSetting(next, current)) continue;
      settings[n] = next;
      data[n] = next;
    }
    patch.settings = settings;
  }
  if (a.deactivated !== undefined && a.deactivated !== g.deactivated) patch.deactivated = data.deactivated = a.deactivated;
  if (!Object.keys(data).length) return {};
  await app.tx(async (tx) => {
    const row = await store.updateUserGroup(tx.db, g.id, patch);
    const event: Record<string, unknown> = { type: "user_group", op: "update", group_id: g.id, data: await presentData(tx.db, realm, data) };
    // Clients that do not handle deactivated groups learn of a reactivation as a new group (present.ts).
    if (data.deactivated === false) event.group = await userGroupObject(tx.db, row);
    tx.emit(event as never, toRealm(realm.id));
  });
  return {};
}

/** Settings in an event's data are shown as clients see them (no deactivated direct members). */
async function presentData(db: Db, realm: RealmRow, data: Record<string, unknown>) {
  if (!USER_GROUP_PERMISSION_NAMES.some((n) => n in data)) return data;
  const inactive = await listInactiveUserIds(db, realm.id);
  const out = { ...data };
  for (const n of USER_GROUP_PERMISSION_NAMES)
    if (n in out) {
      const v = out[n] as GroupSettingValue;
      if (typeof v !== "number") out[n] = { ...v, direct_members: v.direct_members.filter((id) => !inactive.has(id)) };
    }
  return out;
}

/** POST /user_groups/{id}/deactivate. */
export async function deactivateUserGroup(app: App, realm: RealmRow, user: UserRow, id: number) {
  const g = await groupForUpdate(app.db, realm, user, id, ["can_manage_group"]);
  await checkNotInUse(app.db, realm, g);
  await app.tx(async (tx) => {
    await store.updateUserGroup(tx.db, g.id, { deactivated: true });
    tx.emit({ type: "user_group", op: "update", group_id: g.id, data: { deactivated: true } }, toRealm(realm.id));
  });
  return {};
}

async function checkNotInUse(db: Db, realm: RealmRow, g: UserGroupRow) {
  const uses = (v: GroupSettingValue | undefined) => v !== undefined && (v === g.id || (typeof v !== "number" && v.direct_subgroups.includes(g.id)));
  const objections: Record<string, unknown>[] = [];
  const supergroups = await store.listActiveSupergroupIds(db, g.id);
  if (supergroups.length) objections.push({ type: "subgroup", supergroup_ids: supergroups });
  for (const c of await listChannels(db, realm.id)) {
    if (c.isArchived) continue;
    const settings = Object.entries(await channelSettings(db, c))
      .filter(([, v]) => uses(v))
      .map(([n]) => n);
    if (settings.length) objections.push({ type: "channel", channel_id: c.id, settings });
  }
  for (const other of await store.listUserGroups(db, realm.id, false)) {
    if (other.id === g.id) continue;
    const settings = await filterInOrder(USER_GROUP_PERMISSION_NAMES, async (n) => uses(store.storedGroupSetting(other, n)));
    if (settings.length) objections.push({ type: "user_group", group_id: other.id, settings });
  }
  const realmSettings = await filterInOrder(REALM_GROUP_SETTING_NAMES, async (n) => uses(await realmGroupSetting(db, realm, n)));
  if (realmSettings.length) objections.push({ type: "realm", settings: realmSettings });
  if (objections.length) throw groupInUse(objections);
}

export const memberChangeParams = {
  add: p.intList().optional(() => []),
  delete: p.intList().optional(() => []),
  add_subgroups: p.intList().optional(() => []),
  delete_subgroups: p.intList().optional(() => []),
};

/** POST /user_groups/{id}/members: users (and, since level 311, subgroups) in and out. */
export async function updateGroupMembers(app: App, realm: RealmRow, user: UserRow, id: number, a: Args<typeof memberChangeParams>) {
  const db = app.db;
  const addSubs = a.add_subgroups ?? [];
  const delSubs = a.delete_subgroups ?? [];
  if (!a.add.length && !a.delete.length && !addSubs.length && !delSubs.length) throw nothingToDoForMembers();
  const self = (ids: number[]) => ids.length === 1 && ids[0] === user.id;
  if (a.add.length) await groupForUpdate(db, realm, user, id, self(a.add) ? ["can_join_group", "can_add_members_group"] : ["can_add_members_group"]);
  if (a.delete.length)
    await groupForUpdate(db, realm, user, id, self(a.delete) ? ["can_leave_group", "can_remove_members_group"] : ["can_remove_members_group"]);
  const add = await checkUserIds(db, realm, a.add);
  const current = new Set(await store.listDirectMemberIds(db, id, false));
  for (const uid of add) if (current.has(uid)) throw alreadyMember(uid);
  for (const uid of a.delete) if (!current.has(uid)) throw notMember(uid);
  const subs = await planSubgroups(db, realm, user, id, addSubs, delSubs);
  const del = [...new Set(a.delete)];
  await app.tx(async (tx) => {
    if (add.length) {
      await store.addGroupMembers(tx.db, id, add);
      tx.emit({ type: "user_group", op: "add_members", group_id: id, user_ids: add }, toRealm(realm.id));
    }
    if (del.length) {
      await store.removeGroupMembers(tx.db, id, del);
      tx.emit({ type: "user_group", op: "remove_members", group_id: id, user_ids: del }, toRealm(realm.id));
    }
    await applySubgroups(tx, realm, id, subs);
  });
  return {};
}

export const subgroupsParams = { add: p.intList().optional(() => []), delete: p.intList().optional(() => []) };

/** POST /user_groups/{id}/subgroups: allowed on deactivated groups too (level 391). */
export async function updateSubgroups(app: App, realm: RealmRow, user: UserRow, id: number, a: Args<typeof subgroupsParams>) {
  if (!a.add.length && !a.delete.length) throw nothingToDoForSubgroups();
  const subs = await planSubgroups(app.db, realm, user, id, a.add, a.delete);
  await app.tx(async (tx) => await applySubgroups(tx, realm, id, subs));
  return {};
}

interface SubgroupPlan {
  add: number[];
  remove: number[];
}

async function planSubgroups(db: Db, realm: RealmRow, user: UserRow, id: number, add: number[], remove: number[]): Promise<SubgroupPlan> {
  if (!add.length && !remove.length) return { add: [], remove: [] };
  if (add.length) await groupForUpdate(db, realm, user, id, ["can_add_members_group"], true);
  if (remove.length) await groupForUpdate(db, realm, user, id, ["can_remove_members_group"], true);
  const direct = new Set(await store.listDirectSubgroupIds(db, id));
  const toAdd = await checkSubgroupIds(db, realm, add);
  for (const s of toAdd) if (direct.has(s)) throw alreadySubgroup(s);
  if (toAdd.length) await checkNoCycle(db, id, toAdd);
  const toRemove = [...new Set(remove)];
  for (const s of toRemove) {
    if (!(await store.findUserGroup(db, realm.id, s))) throw invalidUserGroupId(s);
    if (!direct.has(s)) throw notSubgroup(s);
  }
  return { add: toAdd, remove: toRemove };
}

async function applySubgroups(tx: Tx, realm: RealmRow, id: number, p: SubgroupPlan) {
  if (p.add.length) {
    await store.addSubgroups(tx.db, id, p.add);
    tx.emit({ type: "user_group", op: "add_subgroups", group_id: id, direct_subgroup_ids: p.add }, toRealm(realm.id));
  }
  if (p.remove.length) {
    await store.removeSubgroups(tx.db, id, p.remove);
    tx.emit({ type: "user_group", op: "remove_subgroups", group_id: id, direct_subgroup_ids: p.remove }, toRealm(realm.id));
  }
}

/** GET /user_groups/{id}/members: active members, through nested subgroups unless direct only. */
export async function groupMembers(app: App, realm: RealmRow, user: UserRow, id: number, directOnly: boolean) {
  checkMember(user);
  const g = await groupInRealm(app.db, realm, id, true);
  return { members: directOnly ? await store.listDirectMemberIds(app.db, g.id, true) : await store.listRecursiveMemberIds(app.db, g.id) };
}

/** GET /user_groups/{id}/subgroups. */
export async function groupSubgroups(app: App, realm: RealmRow, user: UserRow, id: number, directOnly: boolean) {
  checkMember(user);
  const g = await groupInRealm(app.db, realm, id, true);
  return { subgroups: directOnly ? await store.listDirectSubgroupIds(app.db, g.id) : await store.listRecursiveSubgroupIds(app.db, g.id) };
}

/** GET /user_groups/{id}/members/{user_id}: deactivated users are members of nothing (level 303). */
export async function isGroupMember(app: App, realm: RealmRow, user: UserRow, id: number, userId: number, directOnly: boolean) {
  checkMember(user);
  const g = await groupInRealm(app.db, realm, id, true);
  const target = await findUserById(app.db, userId);
  if (!target || target.realmId !== realm.id) throw noSuchUser();
  return { is_user_group_member: target.isActive && (await store.isUserInGroup(app.db, target.id, g.id, directOnly)) };
}

/**
 * A user's deactivation or reactivation changes how anonymous settings naming them read (deactivated
 * users are not listed, level 303): each group whose setting names the user is re-announced.
 */
export async function announceSettingsNamingUserTx(tx: Tx, realmId: number, userId: number) {
  const inactive = await listInactiveUserIds(tx.db, realmId);
  for (const g of await store.listUserGroups(tx.db, realmId, true)) {
    const data: Record<string, unknown> = {};
    for (const n of USER_GROUP_PERMISSION_NAMES) {
      const v = store.storedGroupSetting(g, n);
      if (v !== undefined && typeof v !== "number" && v.direct_members.includes(userId)) data[n] = presentGroupSetting(v, inactive);
    }
    if (Object.keys(data).length) tx.emit({ type: "user_group", op: "update", group_id: g.id, data }, toRealm(realmId));
  }
}
