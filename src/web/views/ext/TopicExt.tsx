// What the extension layer adds to an open channel or topic, under its header: the agent's runs there
// (with a cancel button for the run's owner), the topic's workspace and its README (a lazy editor), and
// the column of linked places: the widgets of plugins linked to this channel or topic.
import { useSignal } from "@preact/signals";
import { lazy, Suspense } from "preact/compat";
import { useEffect } from "preact/hooks";
import { api } from "../../api/client";
import { sayError } from "../../ui/toast";
import { extPlugins, extRuns, workspaceVersion, type AgentRun } from "../../store/ext";
import type { NarrowTerm } from "../../api/types";
import { term } from "../../store/narrow";
import { me } from "../../store/state";
import { isAdmin, isHumanMember } from "./access";
import { restFigure, userWidgets } from "./widgets";
import { Glyph } from "./WidgetNav";

const Readme = lazy(() => import("./Readme"));

export const cancelRun = (id: number) => api.post(`ext/agent/runs/${id}/cancel`).catch(sayError);
export const mayCancel = (r: AgentRun) => r.state === "running" && (r.requested_by === me.value.user_id || isAdmin());

export function RunState({ r }: { r: AgentRun }) {
  return (
    <span class={`run-state run-${r.state}`} data-testid="run-state" data-state={r.state}>
      {r.state === "done" ? "finished" : r.state}
      {r.state === "failed" && r.exit_status !== null && ` (exit ${r.exit_status})`}
    </span>
  );
}

const sameTopic = (a: string | null, b: string) => (a ?? "").toLowerCase() === b.toLowerCase();

export function TopicExt({ terms }: { terms: NarrowTerm[] }) {
  const streamId = term(terms, "channel") as number | undefined;
  const topic = term(terms, "topic") as string | undefined;
  if (streamId === undefined || !isHumanMember()) return null;
  return (
    <div class="topic-ext">
      {topic !== undefined && <TopicRuns streamId={streamId} topic={topic} />}
      {topic !== undefined && <TopicDrafts streamId={streamId} topic={topic} />}
      <LinkedColumn streamId={streamId} topic={topic} />
      {topic !== undefined && <Workspace streamId={streamId} topic={topic} />}
    </div>
  );
}

/** The agent's runs in this topic: the running ones, and those that ended while the tab was open. */
function TopicRuns({ streamId, topic }: { streamId: number; topic: string }) {
  const runs = [...extRuns.value.values()]
    .filter((r) => r.stream_id === streamId && sameTopic(r.topic, topic))
    .sort((a, b) => b.id - a.id)
    .slice(0, 3);
  if (!runs.length) return null;
  return (
    <ul class="topic-runs" aria-label="Agent runs in this topic" aria-live="polite">
      {runs.map((r) => (
        <li key={r.id} class="topic-run" data-testid="topic-run" data-run-id={r.id}>
          <span class="agent-mark" aria-hidden="true">
            ✦
          </span>
          Agent run {r.id} <RunState r={r} />
          {r.state === "running" && <span class="hint"> · turn {Math.max(r.turns, 1)}</span>}
          {mayCancel(r) && (
            <button class="btn small" data-testid="topic-run-cancel" onClick={() => cancelRun(r.id)}>
              Cancel
            </button>
          )}
        </li>
      ))}
    </ul>
  );
}

/** Plugins the agent made in this topic for this person, waiting for them to install or discard. */
function TopicDrafts({ streamId, topic }: { streamId: number; topic: string }) {
  const drafts = [...extPlugins.value.values()].filter(
    (p) => p.state === "draft" && p.made_by === me.value.user_id && p.made_in_stream_id === streamId && sameTopic(p.made_in_topic, topic),
  );
  return (
    <>
      {drafts.map((p) => (
        <a key={p.id} class="linked-chip" href="#ext/plugins" data-testid="topic-draft">
          The agent made the plugin <strong>{p.name}</strong> for you: install or discard it
        </a>
      ))}
    </>
  );
}

/** Widgets of plugins linked here (the link's topic, or the whole channel), with their figures at rest. */
function LinkedColumn({ streamId, topic }: { streamId: number; topic?: string }) {
  const entries = userWidgets().flatMap((w) =>
    w.spec.scope === "link" && w.pref.in_column
      ? w.plugin.links
          .filter(
            (l) =>
              l.stream_id === streamId &&
              (l.topic === null || (topic !== undefined && sameTopic(l.topic, topic))) &&
              (!w.spec.link_kinds || w.spec.link_kinds.includes(l.kind)),
          )
          .map((l) => ({ w, l }))
      : [],
  );
  if (!entries.length) return null;
  return (
    <ul class="linked-column" aria-label="Linked here" data-testid="linked-column">
      {entries.map(({ w, l }) => {
        const figure = restFigure(w, l.id);
        return (
          <li key={`${w.plugin.id}:${w.key}:${l.id}`}>
            <a class="linked-chip" href={`#ext/widget/${w.plugin.id}/${encodeURIComponent(w.key)}`}>
              <Glyph glyph={w.plugin.manifest.glyph} name={w.plugin.name} /> {w.label} · {l.value}
              {figure !== null && <strong class="chip-figure"> {figure}</strong>}
            </a>
          </li>
        );
      })}
    </ul>
  );
}

interface WorkspaceInfo {
  workspace_uuid: string;
  repository_id: number;
  branch: string;
  created_by: number;
}

function Workspace({ streamId, topic }: { streamId: number; topic: string }) {
  const ws = useSignal<WorkspaceInfo | null | undefined>(undefined);
  const editing = useSignal(false);
  const creating = useSignal(false);
  useEffect(() => {
    let gone = false;
    api.get("ext/workspaces", { stream_id: streamId, topic }).then(
      (r) => !gone && (ws.value = r.workspaces[0] ?? null),
      () => {},
    );
    return () => void (gone = true);
  }, [streamId, topic, workspaceVersion.value]);
  if (ws.value === undefined) return null;
  if (ws.value === null)
    return creating.value ? (
      <NewWorkspace streamId={streamId} topic={topic} onDone={() => (creating.value = false)} />
    ) : (
      <button class="btn small ghost" data-testid="workspace-create-open" onClick={() => (creating.value = true)}>
        Add a workspace
      </button>
    );
  const w = ws.value;
  const mayRemove = w.created_by === me.value.user_id || isAdmin();
  return (
    <div class="workspace" data-testid="workspace" data-workspace-uuid={w.workspace_uuid}>
      {/* A branch the server named after the workspace's id says nothing to people: it stays in the tooltip. */}
      <span class="hint" title={w.branch}>
        {w.branch === `workspace/${w.workspace_uuid}` ? (
          "Workspace"
        ) : (
          <>
            Workspace on <code>{w.branch}</code>
          </>
        )}
      </span>
      <button class="btn small" data-testid="readme-open" aria-expanded={editing.value} onClick={() => (editing.value = !editing.value)}>
        {editing.value ? "Close README" : "README"}
      </button>
      {mayRemove && (
        <button
          class="btn small"
          onClick={() =>
            confirm("Remove this workspace? Its files are committed to its branch first.") && api.delete(`ext/workspaces/${w.workspace_uuid}`).catch(sayError)
          }
        >
          Remove workspace
        </button>
      )}
      {editing.value && (
        <Suspense fallback={<div class="readme-editor" aria-busy="true" />}>
          <Readme uuid={w.workspace_uuid} />
        </Suspense>
      )}
    </div>
  );
}

function NewWorkspace({ streamId, topic, onDone }: { streamId: number; topic: string; onDone: () => void }) {
  const repos = useSignal<{ id: number; name: string }[]>([]);
  const repo = useSignal("");
  const start = useSignal("");
  useEffect(() => {
    api.get("ext/repositories").then((r) => {
      repos.value = r.repositories;
      repo.value = String(r.repositories[0]?.id ?? "");
    }, sayError);
  }, []);
  async function submit(e: Event) {
    e.preventDefault();
    try {
      await api.post("ext/workspaces", { stream_id: streamId, topic, repository_id: Number(repo.value), start: start.value.trim() || undefined });
      onDone();
    } catch (err) {
      sayError(err);
    }
  }
  return (
    <form class="row wrap workspace" onSubmit={submit} aria-label="Add a workspace" onKeyDown={(e) => e.key === "Escape" && onDone()}>
      <select aria-label="Repository" data-testid="workspace-repo" value={repo.value} onChange={(e) => (repo.value = e.currentTarget.value)}>
        {repos.value.map((r) => (
          <option key={r.id} value={r.id}>
            {r.name}
          </option>
        ))}
      </select>
      <input
        aria-label="Start from (branch, tag or commit)"
        placeholder="default branch"
        value={start.value}
        onInput={(e) => (start.value = e.currentTarget.value)}
      />
      <button class="btn small primary" data-testid="workspace-create" disabled={!repo.value}>
        Add workspace
      </button>
      <button type="button" class="btn small" onClick={onDone}>
        Cancel
      </button>
    </form>
  );
}
