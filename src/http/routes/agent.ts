import { getAgent } from "../../actions/agent";
import { cancelRun, getRun, listRuns } from "../../actions/agent-runs";
import { RUN_STATES } from "../../domain/agent-runs";
import { endpoint } from "../endpoint";
import { p } from "../params";

export default [
  endpoint("GET", "/ext/agent", { params: {}, run: ({ app, realm, user }) => getAgent(app, realm, user) }),
  endpoint("GET", "/ext/agent/runs", {
    params: {
      stream_id: p.int().optional(),
      topic: p.str().optional(),
      requested_by: p.int().optional(),
      state: p.enum(RUN_STATES).optional(),
      limit: p.int({ min: 1, max: 1000 }).optional(100),
    },
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
];
