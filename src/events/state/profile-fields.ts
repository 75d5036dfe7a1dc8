import { PROFILE_FIELD_TYPES, toApiProfileField } from "../../domain/profile-fields";
import { listProfileFields } from "../../store/profile-fields";
import type { StateBuilder } from "./types";

/** `custom_profile_fields`: the organization's fields and the field types this server offers. */
export const profileFieldsState: StateBuilder = async ({ app, realm }) => ({
  custom_profile_fields: (await listProfileFields(app.db, realm.id)).map(toApiProfileField),
  custom_profile_field_types: structuredClone(PROFILE_FIELD_TYPES),
});
