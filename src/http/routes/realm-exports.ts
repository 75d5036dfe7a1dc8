import { EXPORT_PUBLIC, EXPORT_STANDARD, listExportConsents, listRealmExports, requestRealmExport } from "../../actions/realm-exports";
import { endpoint } from "../endpoint";
import { p } from "../../domain/params";

export default [
  endpoint("GET", "/export/realm", { params: {}, run: ({ app, realm, user }) => listRealmExports(app, realm, user) }),
  endpoint("POST", "/export/realm", {
    params: { export_type: p.intEnum([EXPORT_PUBLIC, EXPORT_STANDARD] as const).optional(EXPORT_PUBLIC) },
    run: ({ app, realm, user, args }) => requestRealmExport(app, realm, user, args.export_type),
  }),
  endpoint("GET", "/export/realm/consents", { params: {}, run: ({ app, realm, user }) => listExportConsents(app, realm, user) }),
];
