// Plugins: every install the user may see with its state, live from ext_plugin events; for plugin
// managers, installing (a server repository, a code host, a remote service), the settings form drawn
// from the manifest, secret slots, links, tools, team widget defaults, turning off, removing and
// restoring. A draft the agent made for this person shows with install / discard.
import { useSignal } from "@preact/signals";
import { useEffect } from "preact/hooks";
import { api } from "../../api/client";
import { ago, fullDate } from "../../ui/format";
import { say, sayError } from "../../ui/toast";
import { extPlugins, type Plugin } from "../../store/ext";
import { channelName, go, topicHref } from "../../store/router";
import { me } from "../../store/state";
import { canManagePlugins, isAdmin } from "./access";
import { PluginSettings } from "./PluginSettings";
import { Glyph } from "./WidgetNav";

const WEEK = 7 * 24 * 3600;

const STATE_TEXT: Record<Plugin["state"], string> = {
  waiting: "Waiting",
  starting: "Starting",
  running: "Running",
  failed: "Failed",
  removed: "Removed",
  draft: "Draft",
};

export function Plugins({ open }: { open?: number }) {
  const manage = canManagePlugins();
  const installing = useSignal(false);
  const list = [...extPlugins.value.values()].sort((a, b) => a.id - b.id);
  const drafts = list.filter((p) => p.state === "draft");
  const installs = list.filter((p) => p.state !== "draft");
  return (
    <div class="ext-section">
      <div class="row">
        <h2 class="ext-h2 grow">Installed plugins ({installs.length})</h2>
        {manage && (
          <button class="btn primary" data-testid="plugin-install-open" aria-expanded={installing.value} onClick={() => (installing.value = !installing.value)}>
            Install a plugin
          </button>
        )}
      </div>
      {installing.value && <InstallForm onDone={() => (installing.value = false)} />}
      {drafts.length > 0 && (
        <>
          <h2 class="ext-h2">Made for you by the agent</h2>
          <ul class="ext-list">
            {drafts.map((p) => (
              <DraftRow key={p.id} p={p} />
            ))}
          </ul>
        </>
      )}
      {installs.length === 0 ? (
        <p class="empty-note">No plugins installed{manage ? "" : " — an administrator installs them"}.</p>
      ) : (
        <ul class="ext-list plugin-list">
          {installs.map((p) => (
            <PluginCard key={p.id} p={p} open={open === p.id} manage={manage} />
          ))}
        </ul>
      )}
      {manage && <Repositories />}
    </div>
  );
}

export function StateBadge({ p }: { p: Plugin }) {
  return (
    <span class={`plugin-state state-${p.state}`} data-testid="plugin-state" data-state={p.state}>
      {p.disabled && p.state === "waiting" ? "Turned off" : STATE_TEXT[p.state]}
    </span>
  );
}

function PluginCard({ p, open, manage }: { p: Plugin; open: boolean; manage: boolean }) {
  const restoreBy = p.date_removed ? p.date_removed + WEEK : null;
  const toggle = () => go(open ? "#ext/plugins" : `#ext/plugins/${p.id}`);
  return (
    <li class={`ext-card plugin-card${open ? " open" : ""}`} data-testid={`plugin-${p.plugin}`} data-install-id={p.id}>
      <div class="plugin-head">
        <span class="plugin-glyph">
          <Glyph glyph={p.manifest.glyph} name={p.name} />
        </span>
        <div class="grow">
          <button class="link-btn plugin-name" aria-expanded={open} onClick={toggle}>
            {p.name}
          </button>{" "}
          <span class="hint">
            {p.version} · {sourceText(p)}
          </span>
          <div class="hint">{p.manifest.description}</div>
        </div>
        <StateBadge p={p} />
      </div>
      <div aria-live="polite">
        {p.state === "failed" && (
          <div class="plugin-detail failed" data-testid="plugin-failure">
            <strong>Failed five times in a row.</strong> It stays stopped until its settings or secrets change, or it is turned off and on. Its last lines:
            <pre>{p.detail}</pre>
          </div>
        )}
        {p.state === "waiting" && p.detail && (
          <div class="plugin-detail" data-testid="plugin-detail">
            {p.detail}
          </div>
        )}
        {p.state === "removed" && restoreBy && (
          <div class="plugin-detail">
            Removed {ago(p.date_removed!)}. It can be restored until {fullDate(restoreBy)}.
            {manage && Date.now() / 1000 < restoreBy && (
              <>
                {" "}
                <button class="btn small" data-testid="plugin-restore" onClick={() => api.post(`ext/plugins/${p.id}/restore`).catch(sayError)}>
                  Restore
                </button>
              </>
            )}
          </div>
        )}
      </div>
      {open && <PluginSettings p={p} manage={manage && p.state !== "removed"} />}
    </li>
  );
}

const sourceText = (p: Plugin) =>
  p.source_kind === "remote"
    ? p.source
    : p.source_kind === "codehost"
      ? `${p.source}@${p.sha.slice(0, 8)}`
      : `server repository${p.source_path ? ` /${p.source_path}` : ""} @${p.sha.slice(0, 8)}`;

function DraftRow({ p }: { p: Plugin }) {
  const mine = p.made_by === me.value.user_id || isAdmin();
  return (
    <li class="ext-card" data-testid={`draft-${p.plugin}`}>
      <div class="plugin-head">
        <span class="plugin-glyph">
          <Glyph glyph={p.manifest.glyph} name={p.name} />
        </span>
        <div class="grow">
          <strong>{p.name}</strong> <span class="hint">{p.version}</span>
          <div class="hint">{p.manifest.description}</div>
          {p.made_in_stream_id !== null && (
            <div class="hint">
              Asked for in{" "}
              <a href={topicHref(p.made_in_stream_id, p.made_in_topic ?? "")}>
                #{channelName(p.made_in_stream_id)} › {p.made_in_topic}
              </a>
            </div>
          )}
        </div>
        <StateBadge p={p} />
      </div>
      {mine && <DraftButtons p={p} />}
    </li>
  );
}

export function DraftButtons({ p }: { p: Plugin }) {
  return (
    <div class="ext-actions">
      <button
        class="btn small primary"
        data-testid="draft-install"
        onClick={() => api.post(`ext/plugins/${p.id}/install`).then(() => say(`${p.name} installed`), sayError)}
      >
        Install
      </button>
      <button
        class="btn small"
        data-testid="draft-discard"
        onClick={() => confirm(`Discard the draft ${p.name}?`) && api.delete(`ext/plugins/${p.id}`).catch(sayError)}
      >
        Discard
      </button>
    </div>
  );
}

/** A manifest error ("Invalid manifest: provides.widgets.x.title must be a string") split into field and problem. */
function ManifestError({ msg }: { msg: string }) {
  const m = /^Invalid manifest: (\S+) (.*)$/.exec(msg);
  if (!m || m[1]!.endsWith(".json") || m[1] === "manifest.json")
    return (
      <p class="form-error" role="alert" data-testid="install-error">
        {msg}
      </p>
    );
  return (
    <div class="form-error" role="alert" data-testid="install-error">
      The plugin's manifest does not fit:
      <dl class="manifest-errors">
        <dt>
          <code>{m[1]}</code>
        </dt>
        <dd>{m[2]}</dd>
      </dl>
    </div>
  );
}

function InstallForm({ onDone }: { onDone: () => void }) {
  const kind = useSignal<"local" | "codehost" | "remote">("local");
  const repos = useSignal<{ id: number; name: string }[]>([]);
  const repo = useSignal("");
  const paths = useSignal<string[]>([]);
  const path = useSignal("");
  const source = useSignal("");
  const sha = useSignal("");
  const error = useSignal("");
  const busy = useSignal(false);
  useEffect(() => {
    api.get("ext/repositories").then((r) => {
      repos.value = r.repositories;
      if (!repo.value && r.repositories[0]) repo.value = String(r.repositories[0].id);
    }, sayError);
  }, []);
  useEffect(() => {
    if (!repo.value) return;
    let stale = false; // a slower answer for the repository chosen before must not win
    api.get(`ext/repositories/${repo.value}`).then((r) => {
      if (stale) return;
      paths.value = r.plugin_paths;
      path.value = r.plugin_paths[0] ?? "";
    }, sayError);
    return () => void (stale = true);
  }, [repo.value]);
  async function submit(e: Event) {
    e.preventDefault();
    busy.value = true;
    error.value = "";
    const params: Record<string, unknown> = { source_kind: kind.value };
    if (kind.value === "local") Object.assign(params, { source_repository_id: Number(repo.value), source_path: path.value, sha: sha.value || undefined });
    else if (kind.value === "codehost") Object.assign(params, { source: source.value.trim(), sha: sha.value.trim(), source_path: path.value });
    else params.source = source.value.trim();
    try {
      const r = await api.post("ext/plugins", params);
      say(`${r.plugin.name} installed`);
      onDone();
      go(`#ext/plugins/${r.plugin.id}`);
    } catch (err) {
      error.value = (err as Error).message;
    } finally {
      busy.value = false;
    }
  }
  return (
    <form
      class="form ext-card ext-form"
      onSubmit={submit}
      aria-label="Install a plugin"
      data-testid="install-form"
      onKeyDown={(e) => e.key === "Escape" && onDone()}
    >
      <fieldset class="ext-radios">
        <legend>From</legend>
        {(
          [
            ["local", "A repository on this server"],
            ["codehost", "A code host"],
            ["remote", "A service run by its author"],
          ] as const
        ).map(([k, label]) => (
          <label class="check" key={k}>
            <input
              type="radio"
              name="source_kind"
              value={k}
              checked={kind.value === k}
              data-testid={`install-kind-${k}`}
              onChange={() => ((kind.value = k), (path.value = ""))}
            />
            {label}
          </label>
        ))}
      </fieldset>
      {kind.value === "local" && (
        <div class="ext-grid">
          <label>
            Repository
            <select data-testid="install-repo" value={repo.value} onChange={(e) => (repo.value = e.currentTarget.value)}>
              {repos.value.map((r) => (
                <option key={r.id} value={r.id}>
                  {r.name}
                </option>
              ))}
            </select>
          </label>
          <label>
            Plugin
            <select data-testid="install-path" value={path.value} onChange={(e) => (path.value = e.currentTarget.value)}>
              {paths.value.map((p) => (
                <option key={p} value={p}>
                  {p || "(top of the repository)"}
                </option>
              ))}
            </select>
          </label>
          <label>
            Commit, branch or tag <span class="hint">(optional)</span>
            <input value={sha.value} placeholder="the default branch" onInput={(e) => (sha.value = e.currentTarget.value)} />
          </label>
        </div>
      )}
      {kind.value === "codehost" && (
        <div class="ext-grid">
          <label>
            Repository
            <input
              required
              placeholder="github/owner/repository"
              data-testid="install-source"
              value={source.value}
              onInput={(e) => (source.value = e.currentTarget.value)}
            />
          </label>
          <label>
            Commit
            <input required placeholder="commit hash" value={sha.value} onInput={(e) => (sha.value = e.currentTarget.value)} />
          </label>
          <label>
            Directory <span class="hint">(optional)</span>
            <input value={path.value} onInput={(e) => (path.value = e.currentTarget.value)} />
          </label>
        </div>
      )}
      {kind.value === "remote" && (
        <label>
          Service address
          <input
            required
            type="url"
            placeholder="https://plugin.example.com"
            data-testid="install-source"
            value={source.value}
            onInput={(e) => (source.value = e.currentTarget.value)}
          />
        </label>
      )}
      {error.value && <ManifestError msg={error.value} />}
      <div class="row">
        <button class="btn primary" data-testid="install-submit" disabled={busy.value}>
          {busy.value ? "Installing…" : "Install"}
        </button>
        <button type="button" class="btn" onClick={onDone}>
          Cancel
        </button>
      </div>
    </form>
  );
}

/** Repositories kept by this server: the plugins' `local` source and the workspaces' origin. */
function Repositories() {
  const repos = useSignal<{ id: number; name: string; description: string; head: string; date_updated: number | null }[]>([]);
  const name = useSignal("");
  const reload = () => api.get("ext/repositories").then((r) => (repos.value = r.repositories), sayError);
  useEffect(() => void reload(), []);
  async function create(e: Event) {
    e.preventDefault();
    try {
      await api.post("ext/repositories", { name: name.value.trim() });
      name.value = "";
      await reload();
    } catch (err) {
      sayError(err);
    }
  }
  return (
    <div class="ext-repos">
      <h2 class="ext-h2">Repositories on this server</h2>
      <ul class="ext-list">
        {repos.value.map((r) => (
          <li key={r.id} class="ext-row">
            <code class="ext-name">{r.name}</code>
            <span class="hint grow">
              {r.description} {r.head ? `head ${r.head.slice(0, 8)}` : "empty"}
              {r.date_updated && ` · updated ${ago(r.date_updated)}`}
            </span>
          </li>
        ))}
      </ul>
      {isAdmin() && (
        <form class="row wrap" onSubmit={create}>
          <input
            aria-label="New repository name"
            placeholder="new repository"
            value={name.value}
            required
            onInput={(e) => (name.value = e.currentTarget.value)}
          />
          <button class="btn small">Create repository</button>
          <span class="hint">
            Content comes with <code>confab repo import</code> or from the agent.
          </span>
        </form>
      )}
    </div>
  );
}
