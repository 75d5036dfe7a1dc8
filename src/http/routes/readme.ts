import { closeReadme, closeReadmeParams, editReadme, editReadmeParams, openReadme, openReadmeParams } from "../../actions/readme";
import { endpoint } from "../endpoint";
import { p } from "../../domain/params";

export default [
  endpoint("POST", "/ext/workspaces/{workspace_uuid}/readme", {
    params: { workspace_uuid: p.path.str(), ...openReadmeParams },
    run: ({ app, user, args }) => openReadme(app, user, args.workspace_uuid, args),
  }),
  endpoint("PATCH", "/ext/workspaces/{workspace_uuid}/readme", {
    params: { workspace_uuid: p.path.str(), ...editReadmeParams },
    run: ({ app, user, args }) => editReadme(app, user, args.workspace_uuid, args),
  }),
  endpoint("DELETE", "/ext/workspaces/{workspace_uuid}/readme", {
    params: { workspace_uuid: p.path.str(), ...closeReadmeParams },
    run: ({ app, user, args }) => closeReadme(app, user, args.workspace_uuid, args),
  }),
];
