import type { App } from "../context";
import type { RealmRow, UserRow } from "../db/schema";
import { invalidChannelId, mustBeAdmin, mustBeOwner, previousValueMismatch } from "../domain/errors";
import { canonicalGroupSetting, checkGroupSetting, presentGroupSetting, sameGroupSetting, type GroupSettingValue } from "../domain/group-settings";
import {
  fromWire,
  realmSetting,
  REALM_SETTING_NAMES,
  REALM_SETTINGS,
  withSetting,
  type RealmSettingDef,
  type RealmSettingName,
  type SettingKind,
} from "../domain/realm-settings";
import { isAdmin, isOwner } from "../domain/roles";
import { toRealm } from "../events/types";
import { findChannel } from "../store/channels";
import { realmGroupSetting } from "../store/realm-settings";
import { findRealmById, updateRealm } from "../store/realms";
import { listInactiveUserIds } from "../store/users";
import { groupSettingLookup } from "./user-groups";
import { syncFullMembers } from "./users";
import { groupSettingChange } from "./user-groups";
import { p, Param, t, type Args } from "../domain/params";

type Change = { new: GroupSettingValue; old?: GroupSettingValue };

/**
 * PATCH /realm: administrators change organization settings, owners also the owner-only ones. Every
 * value is checked before anything is written; unchanged values are not announced. Answers the
 * changed settings with their new values.
 */
/** The request parameter for one setting of a property table (realm or user settings), optional. */
export function settingParam(kind: SettingKind): Param<unknown, true> {
  switch (kind.t) {
    case "bool":
      return p.bool().optional();
    case "int": {
      if (kind.values) return p.intEnum(kind.values).optional();
      const n = t.int({ min: kind.min, max: kind.max });
      if (!kind.special) return p.json(kind.nullable ? t.nullable(n) : n).optional();
      // A special word ("unlimited") may come JSON-encoded or bare, as Zulip's clients differ.
      const special = kind.special;
      const json = p.json(t.union<unknown>(n, t.enum(Object.keys(special))));
      return new Param((raw, name) => (typeof raw === "string" && raw in special ? raw : json.parse(raw, name)), json.describe).optional();
    }
    case "str":
      return kind.values ? p.enum(kind.values).optional() : p.str({ max: kind.max, nonEmpty: kind.nonEmpty }).optional();
    case "group":
      return p.json(groupSettingChange).optional();
  }
}

export const realmSettingsParams = Object.fromEntries(REALM_SETTING_NAMES.map((n) => [n, settingParam(REALM_SETTINGS[n].kind)])) as Record<
  RealmSettingName,
  Param<unknown, true>
>;

export async function updateRealmSettings(app: App, realm: RealmRow, user: UserRow, args: Args<typeof realmSettingsParams>) {
  if (!isAdmin(user.role)) throw mustBeAdmin();
  const given = Object.entries(args).filter(([, v]) => v !== undefined) as [RealmSettingName, unknown][];
  if (given.some(([n]) => REALM_SETTINGS[n].who === "owner") && !isOwner(user.role)) throw mustBeOwner();
  const lookup = await groupSettingLookup(app.db, realm);
  const changed = new Map<RealmSettingName, unknown>();
  for (const [name, raw] of given) {
    const def: RealmSettingDef = REALM_SETTINGS[name];
    if (def.kind.t === "group") {
      const change = raw as Change;
      const current = await realmGroupSetting(app.db, realm, name as never);
      if (change.old !== undefined && !sameGroupSetting(canonicalGroupSetting(change.old, lookup.nobodyGroupId), current)) throw previousValueMismatch();
      const next = await checkGroupSetting(name, change.new, def.kind.config, lookup);
      if (!sameGroupSetting(next, current)) changed.set(name, next);
    } else {
      const value = fromWire(def.kind, raw);
      if (CHANNEL_SETTINGS.includes(name) && value !== -1) await checkChannel(app, realm, value as number);
      if (JSON.stringify(value) !== JSON.stringify(realmSetting(realm, name as never))) changed.set(name, value);
    }
  }
  if (!changed.size) return {};
  let settings = realm.settings;
  const columns: { name?: string; description?: string } = {};
  for (const [name, value] of changed) {
    if (name === "name" || name === "description") columns[name] = value as string;
    else settings = withSetting(settings, name, value, await defaultOf(app, realm, name));
  }
  const inactive = await listInactiveUserIds(app.db, realm.id);
  const wire = (name: RealmSettingName, v: unknown) => (REALM_SETTINGS[name].kind.t === "group" ? presentGroupSetting(v as GroupSettingValue, inactive) : v);
  await app.tx(async (tx) => {
    await updateRealm(tx.db, realm.id, { ...columns, settings });
    const dict: Record<string, unknown> = {};
    for (const [name, value] of changed) {
      if (REALM_SETTINGS[name].event === "update_dict") dict[name] = wire(name, value);
      else tx.emit({ type: "realm", op: "update", property: name, value }, toRealm(realm.id));
    }
    if (Object.keys(dict).length) tx.emit({ type: "realm", op: "update_dict", property: "default", data: dict }, toRealm(realm.id));
  });
  if (changed.has("waiting_period_threshold")) await syncFullMembers(app, (await findRealmById(app.db, realm.id))!);
  return Object.fromEntries([...changed].map(([n, v]) => [n, wire(n, v)]));
}

/** Settings naming a channel by id (-1: none). */
const CHANNEL_SETTINGS: RealmSettingName[] = [
  "moderation_request_channel_id",
  "new_stream_announcements_stream_id",
  "signup_announcements_stream_id",
  "zulip_update_announcements_stream_id",
];

async function checkChannel(app: App, realm: RealmRow, id: number) {
  const c = await findChannel(app.db, id);
  if (!c || c.realmId !== realm.id || c.isArchived) throw invalidChannelId();
}

/** The stored default: group settings store their default system group's id as absence too. */
async function defaultOf(app: App, realm: RealmRow, name: RealmSettingName): Promise<unknown> {
  const def = REALM_SETTINGS[name];
  if (def.kind.t !== "group") return def.default;
  return await realmGroupSetting(app.db, { ...realm, settings: {} }, name as never);
}
