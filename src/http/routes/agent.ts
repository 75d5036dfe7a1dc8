import { draftPluginParams, getAgent, makeDraftPlugin } from "../../actions/agent";
import { cancelRun, getRun, listRuns, listRunsParams } from "../../actions/agent-runs";
import { requireRun } from "../../actions/run-keys";
import { publishDraftPlugin } from "../../actions/plugins";
import { callAgentTool, listAgentTools } from "../../actions/tools";
import type { UserRow } from "../../db/schema";
import type { App } from "../../context";
import { parseBasic } from "../auth";
import { endpoint } from "../endpoint";
import { p, t } from "../../domain/params";

/** The run whose key authenticated the request (the agent's bot during a run), or the API's refusal. */
const callerRun = async (app: App, user: UserRow, req: Request) => await requireRun(app, user, parseBasic(req.headers.get("authorization"))?.apiKey);

export default [
  endpoint("GET", "/ext/agent", { params: {}, run: ({ app, realm, user }) => getAgent(app, realm, user) }),
  endpoint("GET", "/ext/agent/runs", {
    params: listRunsParams,
    run: ({ app, realm, user, args }) => listRuns(app, realm, user, args),
  }),
  endpoint("GET", "/ext/agent/runs/{run_id}", {
    params: { run_id: p.path.int() },
    run: ({ app, user, args }) => getRun(app, user, args.run_id),
  }),
  endpoint("POST", "/ext/agent/runs/{run_id}/cancel", {
    params: { run_id: p.path.int() },
    run: ({ app, user, args }) => cancelRun(app, user, args.run_id),
  }),
  // What the agent's bot does during a run, with the run's key.
  endpoint("POST", "/ext/agent/plugins", {
    params: draftPluginParams,
    run: async ({ app, realm, user, req, args }) => makeDraftPlugin(app, realm, await callerRun(app, user, req), args),
  }),
  endpoint("GET", "/ext/agent/tools", {
    params: {},
    run: async ({ app, realm, user, req }) => {
      await callerRun(app, user, req);
      return await listAgentTools(app, realm);
    },
  }),
  endpoint("POST", "/ext/agent/tools/{install_id}/{tool}", {
    params: { install_id: p.path.int(), tool: p.path.str(), input: p.json(t.any()).optional({}) },
    run: async ({ app, realm, user, req, args }) => callAgentTool(app, realm, await callerRun(app, user, req), args.install_id, args.tool, args.input),
  }),
  // The person a draft was made for installs it (discarding it is DELETE /ext/plugins/{install_id}).
  endpoint("POST", "/ext/plugins/{install_id}/install", {
    params: { install_id: p.path.int() },
    run: ({ app, realm, user, args }) => publishDraftPlugin(app, realm, user, args.install_id),
  }),
];
