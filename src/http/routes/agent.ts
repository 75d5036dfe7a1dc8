import { draftPluginParams, getAgent, makeDraftPlugin } from "../../actions/agent";
import { cancelRun, getRun, listRuns, listRunsParams } from "../../actions/agent-runs";
import { publishDraftPlugin } from "../../actions/plugins";
import { callAgentTool, listAgentTools } from "../../actions/tools";
import { parseBasic } from "../auth";
import { endpoint } from "../endpoint";
import { p, t } from "../../domain/params";

/** The API key the request authenticated with: the run's own key when the agent's bot calls during a run. */
const runKey = (req: Request) => parseBasic(req.headers.get("authorization"))?.apiKey;

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
    run: ({ app, realm, user, req, args }) => makeDraftPlugin(app, realm, user, runKey(req), args),
  }),
  endpoint("GET", "/ext/agent/tools", {
    params: {},
    run: ({ app, realm, user, req }) => listAgentTools(app, realm, user, runKey(req)),
  }),
  endpoint("POST", "/ext/agent/tools/{install_id}/{tool}", {
    params: { install_id: p.path.int(), tool: p.path.str(), input: p.json(t.any()).optional({}) },
    run: ({ app, realm, user, req, args }) => callAgentTool(app, realm, user, runKey(req), args.install_id, args.tool, args.input),
  }),
  // The person a draft was made for installs it (discarding it is DELETE /ext/plugins/{install_id}).
  endpoint("POST", "/ext/plugins/{install_id}/install", {
    params: { install_id: p.path.int() },
    run: ({ app, realm, user, args }) => publishDraftPlugin(app, realm, user, args.install_id),
  }),
];
