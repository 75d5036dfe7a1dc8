import { closeReadme, editReadme, openReadme } from "../../actions/readme";
import { endpoint } from "../endpoint";
import { p } from "../params";

export default [
  endpoint("POST", "/ext/workspaces/{workspace_uuid}/readme", {
    params: { workspace_uuid: p.path.str(), client: p.str(), awareness: p.str().optional() },
    run: ({ app, user, args }) => openReadme(app, user, args.workspace_uuid, args),
  }),
  endpoint("PATCH", "/ext/workspaces/{workspace_uuid}/readme", {
    params: { workspace_uuid: p.path.str(), client: p.str(), update: p.str().optional(), awareness: p.str().optional() },
    run: ({ app, user, args }) => editReadme(app, user, args.workspace_uuid, args),
  }),
  endpoint("DELETE", "/ext/workspaces/{workspace_uuid}/readme", {
    params: { workspace_uuid: p.path.str(), client: p.str(), awareness: p.str().optional() },
    run: ({ app, user, args }) => closeReadme(app, user, args.workspace_uuid, args),
  }),
];
