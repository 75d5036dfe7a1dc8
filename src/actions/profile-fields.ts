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

const MAX_SUMMARY_FIELDS = 2;
const NOT_IN_SUMMARY: readonly number[] = [PROFILE_FIELD_TYPES.LONG_TEXT.id, PROFILE_FIELD_TYPES.USER.id];

/** GET /realm/profile_fields. */
export const listFields = (app: App, realm: RealmRow) => ({ custom_fields: store.listProfileFields(app.db, realm.id).map(toApiProfileField) });

const announce = (tx: Tx, realmId: number) =>
  tx.emit({ type: "custom_profile_fields", fields: store.listProfileFields(tx.db, realmId).map(toApiProfileField) }, toRealm(realmId));

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
function checkField(app: App, realm: RealmRow, type: number, a: Args<typeof fieldPatchParams>, except?: ProfileFieldRow) {
  const name = (a.name ?? "").trim();
  const hint = a.hint ?? "";
  if (!name) throw labelCannotBeBlank();
  if ([...name].length > MAX_FIELD_NAME_LENGTH) throw nameTooLongLimitCharacters(MAX_FIELD_NAME_LENGTH);
  if ([...hint].length > MAX_FIELD_HINT_LENGTH) throw hintTooLongLimitCharacters(MAX_FIELD_HINT_LENGTH);
  const fieldData = checkFieldData(type, a.field_data);
  if (a.display_in_profile_summary) {
    if (NOT_IN_SUMMARY.includes(type)) throw fieldTypeNotSupportedDisplay();
    const shown = store.listProfileFields(app.db, realm.id).filter((f) => f.displayInProfileSummary && f.id !== except?.id).length;
    if (shown >= MAX_SUMMARY_FIELDS) throw onlyCustomProfileFieldsCan(MAX_SUMMARY_FIELDS);
  }
  const same = store.findProfileFieldByName(app.db, realm.id, name);
  if (same && same.id !== except?.id) throw fieldLabelAlreadyExists();
  return { name, hint, fieldData };
}

/** POST /realm/profile_fields: administrators add a field; the realm gets the new field list. */
export function createField(app: App, realm: RealmRow, user: UserRow, a: NewField) {
  if (!isAdmin(user.role)) throw mustBeAdmin();
  if (!PROFILE_FIELD_TYPE_IDS.includes(a.field_type)) throw invalidFieldType();
  const { name, hint, fieldData } = checkField(app, realm, a.field_type, a);
  return app.tx((tx) => {
    const f = store.insertProfileField(tx.db, {
      realmId: realm.id,
      name,
      hint,
      type: a.field_type,
      fieldData,
      order: store.nextFieldOrder(tx.db, realm.id),
      displayInProfileSummary: a.display_in_profile_summary ?? false,
      required: a.required ?? false,
      editableByUser: a.editable_by_user ?? true,
    });
    announce(tx, realm.id);
    return { id: f.id };
  });
}

function fieldFor(app: App, realm: RealmRow, user: UserRow, id: number): ProfileFieldRow {
  if (!isAdmin(user.role)) throw mustBeAdmin();
  const field = store.findProfileField(app.db, realm.id, id);
  if (!field) throw fieldIdNotFound(id);
  return field;
}

/**
 * PATCH /realm/profile_fields/{id} (Zulip serves it; its OpenAPI file leaves it out, python-zulip-api's
 * update_realm_profile_field calls it): what is not sent stays; the type never changes.
 */
export function updateField(app: App, realm: RealmRow, user: UserRow, id: number, a: Args<typeof fieldPatchParams>) {
  const field = fieldFor(app, realm, user, id);
  const merged = {
    name: a.name ?? field.name,
    hint: a.hint ?? field.hint,
    field_data: a.field_data ?? (field.fieldData ? JSON.parse(field.fieldData) : undefined),
    display_in_profile_summary: a.display_in_profile_summary ?? field.displayInProfileSummary,
  };
  const { name, hint, fieldData } = checkField(app, realm, field.type, merged, field);
  app.tx((tx) => {
    store.updateProfileField(tx.db, field.id, {
      name,
      hint,
      fieldData,
      displayInProfileSummary: merged.display_in_profile_summary,
      required: a.required ?? field.required,
      editableByUser: a.editable_by_user ?? field.editableByUser,
    });
    announce(tx, realm.id);
  });
  return {};
}

/** DELETE /realm/profile_fields/{id}: the field and every user's value for it. */
export function deleteField(app: App, realm: RealmRow, user: UserRow, id: number) {
  const field = fieldFor(app, realm, user, id);
  app.tx((tx) => {
    store.deleteProfileField(tx.db, field.id);
    announce(tx, realm.id);
  });
  return {};
}

/** PATCH /realm/profile_fields: a new order, naming every field once. */
export function reorderFields(app: App, realm: RealmRow, user: UserRow, order: number[]) {
  if (!isAdmin(user.role)) throw mustBeAdmin();
  const ids = store.listProfileFields(app.db, realm.id).map((f) => f.id);
  if (order.length !== ids.length || new Set(order).size !== order.length || order.some((id) => !ids.includes(id))) throw invalidFieldOrderMapping();
  app.tx((tx) => {
    order.forEach((id, i) => store.setFieldOrder(tx.db, id, i + 1));
    announce(tx, realm.id);
  });
  return {};
}

export type ProfileChange = { field: ProfileFieldRow; value: string | null };

/** Checks profile_data ({id, value} items; a null or empty value clears the field) before any write. */
export function planProfileData(app: App, realm: RealmRow, _target: UserRow, data: { id: number; value: unknown }[]): ProfileChange[] {
  return data.map(({ id, value }) => {
    const field = store.findProfileField(app.db, realm.id, id);
    if (!field) throw fieldIdNotFound(id);
    if (value === null || value === "" || (Array.isArray(value) && !value.length)) return { field, value: null };
    const exists = (uid: number) => activeUserIdsAmong(app.db, realm.id, [uid]).has(uid);
    return { field, value: checkFieldValue(field, value, exists) };
  });
}

/** Writes checked profile changes; each reaches the realm as a realm_user update. */
export function applyProfileData(tx: Tx, realm: RealmRow, target: UserRow, changes: ProfileChange[]) {
  for (const { field, value } of changes) {
    if (value === null) store.clearFieldValue(tx.db, target.id, field.id);
    else store.setFieldValue(tx.db, target.id, field.id, value);
    tx.emit({ type: "realm_user", op: "update", person: { user_id: target.id, custom_profile_field: { id: field.id, value } } }, toRealm(realm.id));
  }
}
