import { createField, deleteField, fieldPatchParams, listFields, newFieldParams, reorderFields, updateField } from "../../actions/profile-fields";
import { endpoint } from "../endpoint";
import { p } from "../../domain/params";

export default [
  endpoint("GET", "/realm/profile_fields", { params: {}, run: async ({ app, realm }) => await listFields(app, realm) }),
  endpoint("POST", "/realm/profile_fields", {
    params: newFieldParams,
    run: async ({ app, realm, user, args }) => await createField(app, realm, user, args),
  }),
  endpoint("PATCH", "/realm/profile_fields/{field_id}", {
    params: { field_id: p.path.int(), ...fieldPatchParams },
    run: async ({ app, realm, user, args }) => await updateField(app, realm, user, args.field_id, args),
  }),
  endpoint("DELETE", "/realm/profile_fields/{field_id}", {
    params: { field_id: p.path.int() },
    run: async ({ app, realm, user, args }) => await deleteField(app, realm, user, args.field_id),
  }),
  endpoint("PATCH", "/realm/profile_fields", {
    params: { order: p.intList({ unique: false }) },
    run: async ({ app, realm, user, args }) => await reorderFields(app, realm, user, args.order),
  }),
];
