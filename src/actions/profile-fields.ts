import type { App } from "../context";
import type { ProfileFieldRow, RealmRow, UserRow } from "../db/schema";
import type { Tx } from "../db/tx";
import {
  fieldIdNotFound,
  fieldLabelAlreadyExists,
  fieldTypeNotSupportedDisplay,
  hintTooLongLimitCharacters,
  invalidFieldType,
  invalidFieldOrderMapping,
  labelCannotBeBlank,
  mustBeAdmin,
  nameTooLongLimitCharacters,
  onlyCustomProfileFieldsCan,
} from "../domain/errors";
import {
  checkFieldData,
  checkFieldValue,
  MAX_FIELD_HINT_LENGTH,
  MAX_FIELD_NAME_LENGTH,
  PROFILE_FIELD_TYPE_IDS,
  PROFILE_FIELD_TYPES,
  toApiProfileField,
} from "../domain/profile-fields";
import { isAdmin } from "../domain/roles";
import { toRealm } from "../events/types";
import * as store from "../store/profile-fields";
import { activeUserIdsAmong } from "../store/users";
import { p, t, type Args } from "../domain/params";
import { mapInOrder } from "../lib/in-order";

const MAX_SUMMARY_FIELDS = 2;
const NOT_IN_SUMMARY: readonly number[] = [PROFILE_FIELD_TYPES.LONG_TEXT.id, PROFILE_FIELD_TYPES.USER.id];

/** GET /realm/profile_fields. */
export const listFields = async (app: App, realm: RealmRow) => ({ custom_fields: (await store.listProfileFields(app.db, realm.id)).map(toApiProfileField) });

const announce = async (tx: Tx, realmId: number) =>
  tx.emit({ type: "custom_profile_fields", fields: (await store.listProfileFields(tx.db, realmId)).map(toApiProfileField) }, toRealm(realmId));

export const fieldPatchParams = {
  name: p.str().optional(),
  hint: p.str().optional(),
  field_data: p.json(t.dict(t.any())).optional(),
  display_in_profile_summary: p.bool().optional(),
  required: p.bool().optional(),
  editable_by_user: p.bool().optional(),
};
export const newFieldParams = { field_type: p.int(), ...fieldPatchParams };
type NewField = Args<typeof newFieldParams>;

/** A field's label, hint, data and summary flag checked as Zulip checks them; `except` is the field being edited. */
async function checkField(app: App, realm: RealmRow, type: number, a: Args<typeof fieldPatchParams>, except?: ProfileFieldRow) {
  const name = (a.name ?? "").trim();
  const hint = a.hint ?? "";
  if (!name) throw labelCannotBeBlank();
  if ([...name].length > MAX_FIELD_NAME_LENGTH) throw nameTooLongLimitCharacters(MAX_FIELD_NAME_LENGTH);
  if ([...hint].length > MAX_FIELD_HINT_LENGTH) throw hintTooLongLimitCharacters(MAX_FIELD_HINT_LENGTH);
  const fieldData = checkFieldData(type, a.field_data);
  if (a.display_in_profile_summary) {
    if (NOT_IN_SUMMARY.includes(type)) throw fieldTypeNotSupportedDisplay();
    const shown = (await store.listProfileFields(app.db, realm.id)).filter((f) => f.displayInProfileSummary && f.id !== except?.id).length;
    if (shown >= MAX_SUMMARY_FIELDS) throw onlyCustomProfileFieldsCan(MAX_SUMMARY_FIELDS);
  }
  const same = await store.findProfileFieldByName(app.db, realm.id, name);
  if (same && same.id !== except?.id) throw fieldLabelAlreadyExists();
  return { name, hint, fieldData };
}

/** POST /realm/profile_fields: administrators add a field; the realm gets the new field list. */
export async function createField(app: App, realm: RealmRow, user: UserRow, a: NewField) {
  if (!isAdmin(user.role)) throw mustBeAdmin();
  if (!PROFILE_FIELD_TYPE_IDS.includes(a.field_type)) throw invalidFieldType();
  const { name, hint, fieldData } = await checkField(app, realm, a.field_type, a);
  return await app.tx(async (tx) => {
    const f = await store.insertProfileField(tx.db, {
      realmId: realm.id,
      name,
      hint,
      type: a.field_type,
      fieldData,
      order: await store.nextFieldOrder(tx.db, realm.id),
      displayInProfileSummary: a.display_in_profile_summary ?? false,
      required: a.required ?? false,
      editableByUser: a.editable_by_user ?? true,
    });
    await announce(tx, realm.id);
    return { id: f.id };
  });
}

async function fieldFor(app: App, realm: RealmRow, user: UserRow, id: number): Promise<ProfileFieldRow> {
  if (!isAdmin(user.role)) throw mustBeAdmin();
  const field = await store.findProfileField(app.db, realm.id, id);
  if (!field) throw fieldIdNotFound(id);
  return field;
}

/**
 * PATCH /realm/profile_fields/{id} (Zulip serves it; its OpenAPI file leaves it out, python-zulip-api's
 * update_realm_profile_field calls it): what is not sent stays; the type never changes.
 */
export async function updateField(app: App, realm: RealmRow, user: UserRow, id: number, a: Args<typeof fieldPatchParams>) {
  const field = await fieldFor(app, realm, user, id);
  const merged = {
    name: a.name ?? field.name,
    hint: a.hint ?? field.hint,
    field_data: a.field_data ?? (field.fieldData ? JSON.parse(field.fieldData) : undefined),
    display_in_profile_summary: a.display_in_profile_summary ?? field.displayInProfileSummary,
  };
  const { name, hint, fieldData } = await checkField(app, realm, field.type, merged, field);
  await app.tx(async (tx) => {
    await store.updateProfileField(tx.db, field.id, {
      name,
      hint,
      fieldData,
      displayInProfileSummary: merged.display_in_profile_summary,
      required: a.required ?? field.required,
      editableByUser: a.editable_by_user ?? field.editableByUser,
    });
    await announce(tx, realm.id);
  });
  return {};
}

/** DELETE /realm/profile_fields/{id}: the field and every user's value for it. */
export async function deleteField(app: App, realm: RealmRow, user: UserRow, id: number) {
  const field = await fieldFor(app, realm, user, id);
  await app.tx(async (tx) => {
    await store.deleteProfileField(tx.db, field.id);
    await announce(tx, realm.id);
  });
  return {};
}

/** PATCH /realm/profile_fields: a new order, naming every field once. */
export async function reorderFields(app: App, realm: RealmRow, user: UserRow, order: number[]) {
  if (!isAdmin(user.role)) throw mustBeAdmin();
  const ids = (await store.listProfileFields(app.db, realm.id)).map((f) => f.id);
  if (order.length !== ids.length || new Set(order).size !== order.length || order.some((id) => !ids.includes(id))) throw invalidFieldOrderMapping();
  await app.tx(async (tx) => {
    for (const [i, id] of order.entries()) await store.setFieldOrder(tx.db, id, i + 1);
    await announce(tx, realm.id);
  });
  return {};
}

export type ProfileChange = { field: ProfileFieldRow; value: string | null };

/** Checks profile_data ({id, value} items; a null or empty value clears the field) before any write. */
export async function planProfileData(app: App, realm: RealmRow, _target: UserRow, data: { id: number; value: unknown }[]): Promise<ProfileChange[]> {
  return await mapInOrder(data, async ({ id, value }) => {
    const field = await store.findProfileField(app.db, realm.id, id);
    if (!field) throw fieldIdNotFound(id);
    if (value === null || value === "" || (Array.isArray(value) && !value.length)) return { field, value: null };
    const exists = async (uid: number) => (await activeUserIdsAmong(app.db, realm.id, [uid])).has(uid);
    return { field, value: await checkFieldValue(field, value, exists) };
  });
}

/** Writes checked profile changes; each reaches the realm as a realm_user update. */
export async function applyProfileData(tx: Tx, realm: RealmRow, target: UserRow, changes: ProfileChange[]) {
  for (const { field, value } of changes) {
    if (value === null) await store.clearFieldValue(tx.db, target.id, field.id);
    else await store.setFieldValue(tx.db, target.id, field.id, value);
    tx.emit({ type: "realm_user", op: "update", person: { user_id: target.id, custom_profile_field: { id: field.id, value } } }, toRealm(realm.id));
  }
}
