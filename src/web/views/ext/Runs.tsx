// The agent: whether it is on, and its runs in the conversations the user can read (newest first),
// with a link to each run's topic and a cancel button for the run's owner (or an administrator).
import { useSignal } from "@preact/signals";
import { useEffect } from "preact/hooks";
import { api } from "../../api/client";
import { ago } from "../../ui/format";
import { sayError } from "../../ui/toast";
import { extRuns, type AgentRun } from "../../store/ext";
import { cancelRun, mayCancel, RunState } from "./TopicExt";
import { channelName, topicHref } from "../../store/router";
import { userName } from "../../store/state";

export function Runs() {
  const agent = useSignal<{ full_name: string; enabled: boolean; is_active: boolean } | null>(null);
  const fetched = useSignal<AgentRun[]>([]);
  const filter = useSignal("");
  useEffect(() => {
    api.get("ext/agent").then((r) => (agent.value = r.agent), sayError);
  }, []);
  useEffect(() => {
    api.get("ext/agent/runs", filter.value ? { state: filter.value } : {}).then((r) => (fetched.value = r.runs), sayError);
  }, [filter.value]);
  // What the server listed, with what events said since (a run's newer state wins).
  const live = extRuns.value;
  const byId = new Map(fetched.value.map((r) => [r.id, r]));
  for (const [id, r] of live) {
    if (!filter.value || r.state === filter.value) byId.set(id, r);
    else byId.delete(id);
  }
  const runs = [...byId.values()].sort((a, b) => b.id - a.id);
  const where = (r: AgentRun) => (r.stream_id === null ? "a direct-message conversation" : `#${channelName(r.stream_id)} › ${r.topic}`);
  return (
    <div class="ext-section">
      <p class="ext-note" role="note" data-testid="agent-status">
        {agent.value === null
          ? "…"
          : agent.value.enabled
            ? `The agent is on. Mention @${agent.value.full_name} in a topic to start a run; it works with the organization's secrets as environment variables.`
            : "The agent is off: the server has no agent command configured, or its bot is deactivated."}
      </p>
      <div class="row">
        <h2 class="ext-h2 grow">Runs</h2>
        <label class="row">
          <span class="hint">Show</span>
          <select aria-label="Show runs" value={filter.value} onChange={(e) => (filter.value = e.currentTarget.value)}>
            <option value="">all</option>
            <option value="running">running</option>
            <option value="done">finished</option>
            <option value="failed">failed</option>
            <option value="cancelled">cancelled</option>
          </select>
        </label>
      </div>
      {runs.length === 0 ? (
        <p class="empty-note">No runs yet.</p>
      ) : (
        <ul class="ext-list" data-testid="run-list">
          {runs.map((r) => (
            <li key={r.id} class="ext-row" data-testid={`run-${r.id}`}>
              <div class="grow">
                <strong>Run {r.id}</strong> <RunState r={r} />
                <div class="hint">
                  Asked by {userName(r.requested_by)} in {r.stream_id !== null ? <a href={topicHref(r.stream_id, r.topic ?? "")}>{where(r)}</a> : where(r)} ·{" "}
                  {r.turns} turn{r.turns === 1 ? "" : "s"} · started {ago(r.started)}
                  {r.ended && ` · ended ${ago(r.ended)}`}
                </div>
              </div>
              {mayCancel(r) && (
                <button class="btn small danger" data-testid="run-cancel" onClick={() => cancelRun(r.id)}>
                  Cancel
                </button>
              )}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
