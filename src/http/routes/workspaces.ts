import { createWorkspace, createWorkspaceParams, getWorkspace, listWorkspaces, listWorkspacesParams, removeWorkspace } from "../../actions/workspaces";
import { endpoint } from "../endpoint";
import { p } from "../../domain/params";

export default [
  endpoint("GET", "/ext/workspaces", {
    params: listWorkspacesParams,
    run: ({ app, realm, user, args }) => listWorkspaces(app, realm, user, args),
  }),
  endpoint("POST", "/ext/workspaces", {
    params: createWorkspaceParams,
    run: ({ app, realm, user, args }) => createWorkspace(app, realm, user, args),
  }),
  endpoint("GET", "/ext/workspaces/{workspace_uuid}", {
    params: { workspace_uuid: p.path.str() },
    run: ({ app, user, args }) => getWorkspace(app, user, args.workspace_uuid),
  }),
  endpoint("DELETE", "/ext/workspaces/{workspace_uuid}", {
    params: { workspace_uuid: p.path.str() },
    run: ({ app, realm, user, args }) => removeWorkspace(app, realm, user, args.workspace_uuid),
  }),
];
