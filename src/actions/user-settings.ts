import type { App } from "../context";
import type { RealmRow, UserRow } from "../db/schema";
import {
  emailAddressChangesDisabledOrganization,
  emailInUse,
  invalidAddress,
  invalidDefaultLanguage,
  invalidEmailBatchingPeriodSeconds,
  invalidParam,
  mustBeAdmin,
  nameChangesDisabledOrganization,
  notRecognizedTimeZone,
  pleaseFillOutAllFields,
  wrongPassword,
} from "../domain/errors";
import { realmSetting, withSetting } from "../domain/realm-settings";
import { isAdmin } from "../domain/roles";
import { checkFullName, isValidEmail } from "../domain/users";
import {
  allSettings,
  normalizeUserSetting,
  PATCHABLE_DEFAULT_NAMES,
  REALM_DEFAULT_NAMES,
  USER_SETTING_NAMES,
  USER_SETTINGS,
  userSetting,
  type UserSettingName,
} from "../domain/user-settings";
import { toRealm, toUsers } from "../events/types";
import { findRealmUserDefaults, saveRealmUserDefaults } from "../store/user-settings";
import { findUserByEmail, listAdminIds, updateUser } from "../store/users";
import { checkPassword, hashPassword, passwordChangedTx, verifyPassword } from "./users";
import { emailChangeUpdates, mailEmailChangeTx } from "./email-change";
import { deleteAllDrafts } from "../store/drafts";
import { settingParam } from "./realm-settings";
import { p, type Args, type Param } from "../domain/params";

const LANGUAGE_RE = /^[a-z]{2,3}(?:[-_][A-Za-z]{2,4})?$/;

/** Checks values the parameter types cannot: language codes, time zones. */
function checkSettingValues(values: [UserSettingName, unknown][]) {
  for (const [name, v] of values) {
    if (name === "default_language" && !LANGUAGE_RE.test(String(v))) throw invalidDefaultLanguage();
    if (name === "email_notifications_batching_period_seconds" && ((v as number) <= 0 || (v as number) > 7 * 24 * 3600))
      throw invalidEmailBatchingPeriodSeconds(v);
    if (name === "timezone" && v !== "") {
      try {
        new Intl.DateTimeFormat("en", { timeZone: String(v) });
      } catch {
        throw notRecognizedTimeZone();
      }
    }
  }
}

/** A language's English name, as Zulip's event carries it ("de" → "German"). */
const languageName = (code: string) => new Intl.DisplayNames(["en"], { type: "language" }).of(code.replace("_", "-")) ?? code;

const given = (args: Record<string, unknown>, names: readonly UserSettingName[]) =>
  names.filter((n) => args[n] !== undefined).map((n) => [n, normalizeUserSetting(n, args[n])] as [UserSettingName, unknown]);

/** One optional parameter per personal setting in `names`. */
const settingParams = (names: readonly UserSettingName[]) =>
  Object.fromEntries(names.map((n) => [n, settingParam(USER_SETTINGS[n].kind)])) as Partial<Record<UserSettingName, Param<unknown, true>>>;

export const ownSettingsParams = {
  full_name: p.str().optional(),
  email: p.str().optional(),
  old_password: p.str().optional(),
  new_password: p.str().optional(),
  ...settingParams(USER_SETTING_NAMES),
};

/**
 * PATCH /settings: the caller's own personal settings, and their name, email and password. Each
 * changed setting reaches the user's clients as a `user_settings` event; turning off
 * enable_drafts_synchronization deletes the drafts kept on the server. `currentSession`: the browser
 * session making the change (web client), which a password change leaves signed in.
 */
export async function updateOwnSettings(app: App, realm: RealmRow, user: UserRow, a: Args<typeof ownSettingsParams>, currentSession: number | null = null) {
  const values = given(a, Object.keys(USER_SETTINGS) as UserSettingName[]);
  checkSettingValues(values);
  const patch: Partial<UserRow> = {};
  // realm_user updates carry one change each, in the shapes Zulip sends.
  const people: Record<string, unknown>[] = [];
  let newEmail: string | null = null;
  if (a.full_name !== undefined && a.full_name.trim() !== user.fullName) {
    if (realmSetting(realm, "name_changes_disabled") && !isAdmin(user.role)) throw nameChangesDisabledOrganization();
    const name = checkFullName(a.full_name);
    if (!name.ok) throw invalidParam(name.msg);
    patch.fullName = name.name;
    people.push({ full_name: name.name });
  }
  if (a.email !== undefined && a.email.toLowerCase() !== user.email.toLowerCase()) {
    if (realmSetting(realm, "email_changes_disabled") && !isAdmin(user.role)) throw emailAddressChangesDisabledOrganization();
    if (!isValidEmail(a.email)) throw invalidAddress();
    if (await findUserByEmail(app.db, realm.id, a.email)) throw emailInUse(a.email);
    // With email, the new address is confirmed by a link mailed to it (as Zulip); without, it changes at once.
    if (app.config.email.enabled) newEmail = a.email;
    else {
      patch.email = a.email;
      people.push(...emailChangeUpdates(a.email));
    }
  }
  if (a.new_password !== undefined || a.old_password !== undefined) {
    if (a.old_password === undefined) throw pleaseFillOutAllFields();
    if (a.new_password === undefined) throw pleaseFillOutAllFields();
    if (!(await verifyPassword(user, a.old_password))) throw wrongPassword();
    checkPassword(a.new_password);
    patch.passwordHash = await hashPassword(a.new_password);
  }
  const changed = values.filter(([n, v]) => JSON.stringify(userSetting(user, n)) !== JSON.stringify(v));
  let settings = user.settings;
  for (const [n, v] of changed) {
    if (n === "timezone") patch.timezone = v as string;
    else settings = withSetting(settings, n, v, USER_SETTINGS[n].default);
  }
  if (changed.length) patch.settings = settings;
  if (!Object.keys(patch).length && !newEmail) return {};
  const { passwordHash, ...rest } = patch;
  await app.tx(async (tx) => {
    if (Object.keys(rest).length) await updateUser(tx.db, user.id, rest);
    if (passwordHash) await passwordChangedTx(app, tx, user, passwordHash, { endSessions: false, keepSession: currentSession });
    if (newEmail) await mailEmailChangeTx(app, tx, realm, user, newEmail);
    for (const [property, value] of changed) {
      const ev: Record<string, unknown> = { type: "user_settings", op: "update", property, value };
      if (property === "default_language") ev.language_name = languageName(String(value));
      tx.emit(ev as never, toUsers([user.id]));
      if (property === "enable_drafts_synchronization" && value === false) await deleteAllDrafts(tx.db, user.id);
      if (property === "timezone") people.push({ email: patch.email ?? user.email, timezone: value });
      // Administrators see who allows their private data in a standard export (GET /export/realm/consents).
      if (property === "allow_private_data_export")
        tx.emit({ type: "realm_export_consent", user_id: user.id, consented: value === true }, toUsers(await listAdminIds(tx.db, realm.id)));
    }
    for (const person of people) tx.emit({ type: "realm_user", op: "update", person: { user_id: user.id, ...person } }, toRealm(realm.id));
  });
  return {};
}

/** PATCH /realm/user_settings_defaults: administrators set what new users start with. */
export const userDefaultsParams = settingParams(PATCHABLE_DEFAULT_NAMES);

export async function updateRealmUserDefaults(app: App, realm: RealmRow, user: UserRow, args: Args<typeof userDefaultsParams>) {
  if (!isAdmin(user.role)) throw mustBeAdmin();
  const values = given(args, PATCHABLE_DEFAULT_NAMES);
  checkSettingValues(values);
  const stored = await findRealmUserDefaults(app.db, realm.id);
  const current = allSettings(stored, REALM_DEFAULT_NAMES);
  const changed = values.filter(([n, v]) => JSON.stringify(current[n]) !== JSON.stringify(v));
  if (!changed.length) return {};
  let settings = stored;
  for (const [n, v] of changed) settings = withSetting(settings, n, v, USER_SETTINGS[n].default);
  await app.tx(async (tx) => {
    await saveRealmUserDefaults(tx.db, realm.id, settings);
    for (const [property, value] of changed) tx.emit({ type: "realm_user_settings_defaults", op: "update", property, value }, toRealm(realm.id));
  });
  return {};
}
