import { createField, deleteField, fieldPatchParams, listFields, newFieldParams, reorderFields, updateField } from "../../actions/profile-fields";
import { endpoint } from "../endpoint";
import { p } from "../../domain/params";

export default [
  endpoint("GET", "/realm/profile_fields", { params: {}, run: ({ app, realm }) => listFields(app, realm) }),
  endpoint("POST", "/realm/profile_fields", {
    params: newFieldParams,
    run: ({ app, realm, user, args }) => createField(app, realm, user, args),
  }),
  endpoint("PATCH", "/realm/profile_fields/{field_id}", {
    params: { field_id: p.path.int(), ...fieldPatchParams },
    run: ({ app, realm, user, args }) => updateField(app, realm, user, args.field_id, args),
  }),
  endpoint("DELETE", "/realm/profile_fields/{field_id}", {
    params: { field_id: p.path.int() },
    run: ({ app, realm, user, args }) => deleteField(app, realm, user, args.field_id),
  }),
  endpoint("PATCH", "/realm/profile_fields", {
    params: { order: p.intList({ unique: false }) },
    run: ({ app, realm, user, args }) => reorderFields(app, realm, user, args.order),
  }),
];
