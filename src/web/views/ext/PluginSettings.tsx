// One plugin opened on the Plugins page: its settings form (drawn from the manifest's form), secret
// slots (set / replace / clear; only hints come back), links to channels and topics, the agent's tools,
// the team's widget defaults, turning it off and on, removing it, and its last log lines.
import { useSignal } from "@preact/signals";
import { api } from "../../api/client";
import { ago } from "../../ui/format";
import { say, sayError } from "../../ui/toast";
import type { Plugin, SettingField } from "../../store/ext";
import { channelName, topicHref } from "../../store/router";
import { subs, userName } from "../../store/state";

const patch = (p: Plugin, params: Record<string, unknown>) => api.patch(`ext/plugins/${p.id}`, params);

export function PluginSettings({ p, manage }: { p: Plugin; manage: boolean }) {
  const provides = p.manifest.provides ?? {};
  return (
    <div class="plugin-body">
      {(provides.settings?.length ?? 0) > 0 && <SettingsForm p={p} fields={provides.settings!} manage={manage} />}
      {(p.secrets.length ?? 0) > 0 && <SecretSlots p={p} manage={manage} />}
      {(provides.links?.length ?? 0) > 0 && <Links p={p} manage={manage} />}
      {(provides.tools?.length ?? 0) > 0 && <Tools p={p} manage={manage} />}
      {Object.keys(provides.widgets ?? {}).length > 0 && <WidgetDefaults p={p} manage={manage} />}
      {manage && (
        <div class="ext-actions">
          <button class="btn small" data-testid="plugin-toggle" onClick={() => patch(p, { disabled: !p.disabled }).catch(sayError)}>
            {p.disabled ? "Turn on" : "Turn off"}
          </button>
          <Logs p={p} />
          <button
            class="btn small danger"
            data-testid="plugin-remove"
            onClick={() => confirm(`Remove ${p.name}? Its bot stops; it can be restored for a week.`) && api.delete(`ext/plugins/${p.id}`).catch(sayError)}
          >
            Remove
          </button>
        </div>
      )}
    </div>
  );
}

function SettingsForm({ p, fields, manage }: { p: Plugin; fields: SettingField[]; manage: boolean }) {
  const values = useSignal<Record<string, unknown>>({ ...p.settings });
  const error = useSignal("");
  const set = (k: string, v: unknown) => (values.value = { ...values.value, [k]: v });
  async function save(e: Event) {
    e.preventDefault();
    error.value = "";
    const changed: Record<string, unknown> = {};
    for (const f of fields) if (JSON.stringify(values.value[f.key]) !== JSON.stringify(p.settings[f.key])) changed[f.key] = values.value[f.key] ?? null;
    if (!Object.keys(changed).length) return say("Nothing changed");
    try {
      await patch(p, { settings: changed });
      say("Settings saved");
    } catch (err) {
      error.value = (err as Error).message;
    }
  }
  return (
    <form class="form ext-block" onSubmit={save} aria-label={`Settings of ${p.name}`} data-testid="plugin-settings">
      <h3>Settings</h3>
      <div class="ext-grid">
        {fields.map((f) => (
          <Field key={f.key} f={f} value={values.value[f.key]} onChange={(v) => set(f.key, v)} disabled={!manage} />
        ))}
      </div>
      {error.value && (
        <p class="form-error" role="alert">
          {error.value}
        </p>
      )}
      {manage && (
        <div>
          <button class="btn small primary" data-testid="settings-save">
            Save settings
          </button>
        </div>
      )}
    </form>
  );
}

function Field({ f, value, onChange, disabled }: { f: SettingField; value: unknown; onChange: (v: unknown) => void; disabled: boolean }) {
  const testid = `setting-field-${f.key}`;
  const title = (
    <span>
      {f.title}
      {f.required && <span aria-hidden="true"> *</span>}
    </span>
  );
  if (f.type === "boolean")
    return (
      <label class="check">
        <input type="checkbox" data-testid={testid} disabled={disabled} checked={!!value} onChange={(e) => onChange(e.currentTarget.checked)} />
        {title}
      </label>
    );
  if (f.type === "choice" || f.type === "channel") {
    const options =
      f.type === "choice" ? (f.choices ?? []).map((c) => [c, c] as const) : [...subs.value.values()].map((s) => [String(s.stream_id), `#${s.name}`] as const);
    return (
      <label>
        {title}
        <select
          data-testid={testid}
          disabled={disabled}
          required={f.required}
          value={value === undefined || value === null ? "" : String(value)}
          onChange={(e) => onChange(e.currentTarget.value === "" ? null : f.type === "channel" ? Number(e.currentTarget.value) : e.currentTarget.value)}
        >
          <option value="">—</option>
          {options.map(([v, label]) => (
            <option key={v} value={v}>
              {label}
            </option>
          ))}
        </select>
      </label>
    );
  }
  if (f.type === "text")
    return (
      <label>
        {title}
        <textarea
          data-testid={testid}
          disabled={disabled}
          required={f.required}
          maxLength={f.max_length}
          value={String(value ?? "")}
          onInput={(e) => onChange(e.currentTarget.value)}
        />
      </label>
    );
  const numeric = f.type === "integer" || f.type === "number";
  return (
    <label>
      {title}
      <input
        data-testid={testid}
        type={(numeric ? "number" : f.type === "url" ? "url" : "text") as "text"}
        step={f.type === "integer" ? 1 : "any"}
        min={f.min}
        max={f.max}
        maxLength={f.max_length}
        disabled={disabled}
        required={f.required}
        value={value === undefined || value === null ? "" : String(value)}
        onInput={(e) => {
          const t = e.currentTarget.value;
          onChange(t === "" ? null : numeric ? Number(t) : t);
        }}
      />
    </label>
  );
}

function SecretSlots({ p, manage }: { p: Plugin; manage: boolean }) {
  return (
    <div class="ext-block" data-testid="plugin-secrets">
      <h3>Secrets</h3>
      <p class="hint">A value is sent once and never shown again; the plugin's process gets it as EXT_SECRET_&lt;NAME&gt;.</p>
      <ul class="ext-list">
        {p.secrets.map((s) => (
          <SlotRow key={s.name} p={p} slot={s} manage={manage} />
        ))}
      </ul>
    </div>
  );
}

function SlotRow({ p, slot, manage }: { p: Plugin; slot: Plugin["secrets"][number]; manage: boolean }) {
  const value = useSignal("");
  async function save(e: Event) {
    e.preventDefault();
    try {
      await api.post(`ext/plugins/${p.id}/secrets/${encodeURIComponent(slot.name)}`, { secret: value.value });
      value.value = "";
      say(`${slot.title} saved`);
    } catch (err) {
      sayError(err);
    }
  }
  return (
    <li class="ext-row" data-testid={`slot-${slot.name}`}>
      <div class="grow">
        <strong>{slot.title}</strong> <code class="hint">{slot.name}</code>
        {slot.required && <span class="hint"> · required</span>}
        <div class="hint" data-testid="slot-status">
          {slot.set
            ? `Set${slot.hint ? `, ends in …${slot.hint}` : ""}${slot.set_by ? ` by ${userName(slot.set_by)}` : ""}${slot.date_set ? ` ${ago(slot.date_set)}` : ""}`
            : "Not set"}
        </div>
      </div>
      {manage && (
        <form class="row" onSubmit={save}>
          <input
            type="password"
            aria-label={`${slot.set ? "New value" : "Value"} for ${slot.title}`}
            data-testid="slot-value"
            required
            autoComplete="new-password"
            value={value.value}
            onInput={(e) => (value.value = e.currentTarget.value)}
          />
          <button class="btn small" data-testid="slot-save">
            {slot.set ? "Replace" : "Set"}
          </button>
          {slot.set && (
            <button
              type="button"
              class="btn small"
              data-testid="slot-clear"
              onClick={() => api.delete(`ext/plugins/${p.id}/secrets/${encodeURIComponent(slot.name)}`).catch(sayError)}
            >
              Clear
            </button>
          )}
        </form>
      )}
    </li>
  );
}

function Links({ p, manage }: { p: Plugin; manage: boolean }) {
  const kinds = p.manifest.provides?.links ?? [];
  const kind = useSignal(kinds[0]?.kind ?? "");
  const value = useSignal("");
  const stream = useSignal(String([...subs.value.keys()][0] ?? ""));
  const topic = useSignal("");
  async function add(e: Event) {
    e.preventDefault();
    try {
      await api.post(`ext/plugins/${p.id}/links`, {
        kind: kind.value,
        value: value.value,
        stream_id: Number(stream.value),
        topic: topic.value.trim() || undefined,
      });
      value.value = topic.value = "";
    } catch (err) {
      sayError(err);
    }
  }
  return (
    <div class="ext-block" data-testid="plugin-links">
      <h3>Linked channels and topics</h3>
      {p.links.length === 0 && <p class="empty-note">Not linked anywhere.</p>}
      <ul class="ext-list">
        {p.links.map((l) => (
          <li key={l.id} class="ext-row" data-testid="plugin-link">
            <span class="grow">
              {kinds.find((k) => k.kind === l.kind)?.title ?? l.kind} <strong>{l.value}</strong> →{" "}
              <a href={topicHref(l.stream_id, l.topic ?? "")}>
                #{channelName(l.stream_id)}
                {l.topic !== null && ` › ${l.topic}`}
              </a>
            </span>
            {manage && (
              <button
                class="btn small"
                aria-label={`Remove the link to ${l.value}`}
                onClick={() => api.delete(`ext/plugins/${p.id}/links/${l.id}`).catch(sayError)}
              >
                Unlink
              </button>
            )}
          </li>
        ))}
      </ul>
      {manage && (
        <form class="row wrap" onSubmit={add} aria-label="Add a link">
          <select aria-label="Link kind" value={kind.value} onChange={(e) => (kind.value = e.currentTarget.value)}>
            {kinds.map((k) => (
              <option key={k.kind} value={k.kind}>
                {k.title}
              </option>
            ))}
          </select>
          <input
            aria-label="Linked value"
            data-testid="link-value"
            placeholder="e.g. a project"
            required
            maxLength={200}
            value={value.value}
            onInput={(e) => (value.value = e.currentTarget.value)}
          />
          <select aria-label="Channel" data-testid="link-channel" value={stream.value} onChange={(e) => (stream.value = e.currentTarget.value)}>
            {[...subs.value.values()].map((s) => (
              <option key={s.stream_id} value={s.stream_id}>
                #{s.name}
              </option>
            ))}
          </select>
          <input
            aria-label="Topic (empty: the whole channel)"
            data-testid="link-topic"
            placeholder="topic (optional)"
            maxLength={60}
            value={topic.value}
            onInput={(e) => (topic.value = e.currentTarget.value)}
          />
          <button class="btn small" data-testid="link-add">
            Link
          </button>
        </form>
      )}
    </div>
  );
}

function Tools({ p, manage }: { p: Plugin; manage: boolean }) {
  const off = new Set(p.disabled_tools);
  const toggle = (name: string) => {
    const next = new Set(off);
    next.has(name) ? next.delete(name) : next.add(name);
    patch(p, { disabled_tools: [...next] }).catch(sayError);
  };
  return (
    <fieldset class="ext-block">
      <legend>Tools the agent may use</legend>
      {p.manifest.provides!.tools!.map((t) => (
        <label class="check" key={t.name}>
          <input type="checkbox" disabled={!manage} checked={!off.has(t.name)} data-testid={`tool-${t.name}`} onChange={() => toggle(t.name)} />
          <code>{t.name}</code> <span class="hint">{t.description}</span>
        </label>
      ))}
    </fieldset>
  );
}

function WidgetDefaults({ p, manage }: { p: Plugin; manage: boolean }) {
  const widgets = Object.entries(p.manifest.provides!.widgets!);
  return (
    <div class="ext-block">
      <h3>Widgets: the team's defaults</h3>
      <p class="hint">Each person can still show, hide or move a widget for themselves.</p>
      <ul class="ext-list">
        {widgets.map(([key, w]) => {
          const d = p.widget_defaults[key] ?? { nav: "shown", column: true };
          return (
            <li key={key} class="ext-row">
              <span class="grow">
                <a href={`#ext/widget/${p.id}/${encodeURIComponent(key)}`}>{w.title ?? key}</a>
              </span>
              <select
                aria-label={`${w.title ?? key} in the nav`}
                disabled={!manage}
                value={d.nav}
                onChange={(e) => patch(p, { widget_defaults: { [key]: { nav: e.currentTarget.value } } }).catch(sayError)}
              >
                <option value="shown">Shown in everyone's nav</option>
                <option value="menu">Offered in the + menu</option>
                <option value="hidden">Not in the nav</option>
              </select>
              <label class="check">
                <input
                  type="checkbox"
                  disabled={!manage}
                  checked={d.column}
                  onChange={(e) => patch(p, { widget_defaults: { [key]: { column: e.currentTarget.checked } } }).catch(sayError)}
                />
                In the column of linked places
              </label>
            </li>
          );
        })}
      </ul>
    </div>
  );
}

function Logs({ p }: { p: Plugin }) {
  const lines = useSignal<string[] | null>(null);
  const load = () => api.get(`ext/plugins/${p.id}/logs`, { lines: 200 }).then((r) => (lines.value = r.lines), sayError);
  return (
    <>
      <button class="btn small" data-testid="plugin-logs" onClick={() => (lines.value ? (lines.value = null) : load())}>
        {lines.value ? "Hide log" : "Show log"}
      </button>
      {lines.value && (
        <pre class="plugin-log" tabIndex={0} aria-label={`Log of ${p.name}`}>
          {lines.value.join("\n") || "(empty)"}
        </pre>
      )}
    </>
  );
}
