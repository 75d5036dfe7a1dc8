// An open widget: its documents' blocks (list, table, stats, text, chart), redrawn live from ext_widget
// events, and the user's own choices for it (in the nav or not, place, label, figure at rest, filters,
// column). Opening it marks it seen, so it stops showing as new on every client of the user.
import { useSignal } from "@preact/signals";
import { useEffect } from "preact/hooks";
import { api } from "../../api/client";
import { sayError } from "../../ui/toast";
import { extWidgets, scopeKey, type WidgetDocument } from "../../store/ext";
import { channelName, topicHref } from "../../store/router";
import { Glyph } from "./WidgetNav";
import { firingAlerts, setPreference, userWidgets, widgetHref, widgetScopes, type UserWidget } from "./widgets";

export function WidgetPage({ installId, widget, item, linkId }: { installId: number; widget: string; item: string; linkId: number | null }) {
  const w = userWidgets().find((x) => x.plugin.id === installId && x.key === widget);
  const fetched = useSignal(new Map<string, WidgetDocument | null>());
  // The widget's own documents, or (opened from a row) the one document pushed for that row's item.
  const scopes = w ? (item ? widgetScopes(w).filter((s) => s.linkId === linkId) : widgetScopes(w)) : [];
  useEffect(() => {
    if (!w) return;
    if (w.pref.seen === null) void setPreference(w, { seen: true });
    // Documents pushed before this tab registered are in register's ext_widgets; fetch any scope it lacks.
    for (const s of scopes)
      if (!extWidgets.value.get(scopeKey(installId, widget, s.linkId, item)))
        api
          .get(`ext/widgets/${installId}/${encodeURIComponent(widget)}`, { ...(s.linkId === null ? {} : { link_id: s.linkId }), ...(item ? { item } : {}) })
          .then((r) => (fetched.value = new Map(fetched.value).set(scopeKey(installId, widget, s.linkId, item), r.document)), sayError);
  }, [installId, widget, item, linkId, !!w]);
  if (!w)
    return (
      <section class="page">
        <p class="empty-note">This widget is not available (its plugin may have been removed).</p>
      </section>
    );
  const alerts = item ? [] : firingAlerts(w);
  return (
    <section class="page widget-page" aria-labelledby="widget-title" data-testid="widget-page">
      <div class="page-head">
        <h1 id="widget-title">
          <Glyph glyph={w.plugin.manifest.glyph} name={w.plugin.name} /> {item ? <a href={widgetHref(installId, widget)}>{w.label}</a> : w.label}
          {item && <span data-testid="widget-item-title"> › {item}</span>}
        </h1>
        <span class="hint">{w.plugin.name}</span>
      </div>
      {alerts.length > 0 && (
        <div class="widget-alerts" role="status" data-testid="widget-alerts">
          {alerts.map((a) => (
            <p key={a.name}>
              <strong>{a.title}</strong>: {a.value} (your alert at {a.threshold})
            </p>
          ))}
        </div>
      )}
      {!item && <Preferences w={w} />}
      {scopes.length === 0 && <p class="empty-note">This widget shows linked places, and its plugin is not linked anywhere yet.</p>}
      <div aria-live="polite">
        {scopes.map((s) => {
          const link = w.plugin.links.find((l) => l.id === s.linkId);
          const key = scopeKey(installId, widget, s.linkId, item);
          const scope = extWidgets.value.get(key);
          const doc = scope?.document ?? fetched.value.get(key);
          return (
            <article key={String(s.linkId)} class="widget-doc" data-testid="widget-doc" data-version={scope?.version ?? 0}>
              {link && (
                <h2 class="ext-h2">
                  {link.value} ·{" "}
                  <a href={topicHref(link.stream_id, link.topic ?? "")}>
                    #{channelName(link.stream_id)}
                    {link.topic !== null && ` › ${link.topic}`}
                  </a>
                </h2>
              )}
              {doc ? (
                <Blocks doc={doc} filters={w.pref.filters} open={{ installId, widget, linkId: s.linkId }} />
              ) : (
                <p class="empty-note">{item ? "Nothing pushed for this row yet." : "Nothing pushed yet."}</p>
              )}
            </article>
          );
        })}
      </div>
    </section>
  );
}

const text = (v: unknown) => (v === null || v === undefined ? "" : typeof v === "object" ? JSON.stringify(v) : String(v));
const rowLabel = (item: any) => text(item?.label ?? item?.title ?? item?.name ?? item?.text ?? item);

/** Where a row with a `key` leads: its own document, in the widget it names (`widget`) or this one. */
interface RowTarget {
  installId: number;
  widget: string;
  linkId: number | null;
}

export function Blocks({ doc, filters = {}, open }: { doc: WidgetDocument; filters?: Record<string, string>; open: RowTarget }) {
  const keep = (item: any) => Object.entries(filters).every(([k, v]) => typeof item !== "object" || item?.[k] === undefined || item[k] === v);
  return (
    <>
      {(doc.blocks ?? []).map((b, i) => {
        const items = (b.items ?? []).filter(keep);
        return (
          <section key={i} class={`widget-block block-${b.type}`} data-testid="widget-block" data-block-type={b.type} aria-label={b.label || b.type}>
            {b.label && <h3>{b.label}</h3>}
            {items.length === 0 ? <p class="empty-note">Nothing here.</p> : <Block type={b.type} items={items} open={open} />}
          </section>
        );
      })}
    </>
  );
}

/** A row's own document, when the plugin gave the row a key. */
const rowHref = (it: any, open: RowTarget) =>
  it && typeof it === "object" && typeof it.key === "string" && it.key
    ? widgetHref(open.installId, typeof it.widget === "string" && it.widget ? it.widget : open.widget, it.key, open.linkId)
    : undefined;

function Block({ type, items, open }: { type: string; items: any[]; open: RowTarget }) {
  if (type === "table") {
    const cols = [...new Set(items.flatMap((i) => (i && typeof i === "object" ? Object.keys(i) : [])))].slice(0, 8);
    return (
      <div class="table-wrap">
        <table>
          <thead>
            <tr>
              {cols.map((c) => (
                <th key={c} scope="col">
                  {c}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {items.map((it, i) => (
              <tr key={i} data-testid="widget-item">
                {cols.map((c, j) => {
                  const href = j === 0 ? rowHref(it, open) : undefined;
                  return <td key={c}>{href ? <a href={href}>{text(it?.[c])}</a> : text(it?.[c])}</td>;
                })}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    );
  }
  if (type === "stats")
    return (
      <dl class="widget-stats">
        {items.map((it, i) => (
          <div key={i} data-testid="widget-item">
            <dt>{text(it?.label ?? it?.name)}</dt>
            <dd>{text(it?.value)}</dd>
          </div>
        ))}
      </dl>
    );
  if (type === "chart") {
    const max = Math.max(1, ...items.map((it) => Number(it?.value) || 0));
    return (
      <ul class="widget-chart">
        {items.map((it, i) => (
          <li key={i} data-testid="widget-item">
            <span class="chart-label">{text(it?.label ?? it?.name)}</span>
            <span class="chart-bar" style={{ width: `${((Number(it?.value) || 0) / max) * 100}%` }} />
            <span class="chart-value">{text(it?.value)}</span>
          </li>
        ))}
      </ul>
    );
  }
  if (type === "text")
    return (
      <>
        {items.map((it, i) => (
          <p key={i} data-testid="widget-item">
            {text(it?.text ?? it)}
          </p>
        ))}
      </>
    );
  return (
    <ul class="widget-list">
      {items.map((it, i) => (
        <li key={i} data-testid="widget-item">
          <span class="grow">{rowHref(it, open) ? <a href={rowHref(it, open)}>{rowLabel(it)}</a> : rowLabel(it)}</span>
          {it?.status !== undefined && <span class={`widget-status status-${text(it.status)}`}>{text(it.status)}</span>}
          {it?.value !== undefined && <span class="hint">{text(it.value)}</span>}
        </li>
      ))}
    </ul>
  );
}

function Preferences({ w }: { w: UserWidget }) {
  const label = useSignal(w.pref.label);
  useEffect(() => void (label.value = w.pref.label), [w.pref.label]);
  const figures = w.spec.figures ?? [];
  const facets = Object.entries(w.spec.facets ?? {});
  const alerts = Object.entries(w.spec.alerts ?? {});
  return (
    <details class="widget-prefs">
      <summary>Your view of this widget</summary>
      <div class="form ext-grid">
        <label class="check">
          <input type="checkbox" data-testid="widget-shown" checked={w.pref.shown} onChange={(e) => setPreference(w, { shown: e.currentTarget.checked })} />
          Show in my nav
        </label>
        <label class="check">
          <input type="checkbox" checked={w.pref.in_column} onChange={(e) => setPreference(w, { in_column: e.currentTarget.checked })} />
          Show in the column of linked places
        </label>
        <form class="row" onSubmit={(e) => (e.preventDefault(), setPreference(w, { label: label.value.trim() }))}>
          <label class="grow">
            Label
            <input
              maxLength={24}
              data-testid="widget-label"
              placeholder={w.spec.title ?? w.key}
              value={label.value}
              onInput={(e) => (label.value = e.currentTarget.value)}
            />
          </label>
          <button class="btn small">Rename</button>
        </form>
        <div class="row">
          <span class="hint">Place in my nav</span>
          <button
            class="btn small"
            aria-label="Move up"
            disabled={w.pref.position <= 0}
            onClick={() => setPreference(w, { position: Math.max(0, w.pref.position - 1) })}
          >
            ↑
          </button>
          <button
            class="btn small"
            aria-label="Move down"
            disabled={w.pref.position >= 999}
            onClick={() => setPreference(w, { position: Math.min(999, w.pref.position + 1) })}
          >
            ↓
          </button>
        </div>
        {figures.length > 0 && (
          <label>
            Figure at rest
            <select
              data-testid="widget-figure-pick"
              value={w.pref.rest_figure ?? ""}
              onChange={(e) => setPreference(w, { rest_figure: e.currentTarget.value })}
            >
              {figures.map((f) => (
                <option key={f} value={f}>
                  {f}
                </option>
              ))}
            </select>
          </label>
        )}
        {facets.map(([name, f]) => (
          <label key={name}>
            {f.title}
            <select
              value={w.pref.filters[name] ?? ""}
              onChange={(e) => {
                const filters = { ...w.pref.filters };
                if (e.currentTarget.value) filters[name] = e.currentTarget.value;
                else delete filters[name];
                setPreference(w, { filters });
              }}
            >
              <option value="">all</option>
              {f.values.map((v) => (
                <option key={v} value={v}>
                  {v}
                </option>
              ))}
            </select>
          </label>
        ))}
        {alerts.map(([name, a]) => (
          <AlertThreshold key={name} w={w} name={name} spec={a} />
        ))}
        <button class="btn small" onClick={() => setPreference(w, { reset: ["shown", "position", "label", "filters", "alerts", "in_column", "rest_figure"] })}>
          Back to the team's defaults
        </button>
      </div>
    </details>
  );
}

/** Watching one declared alert: a threshold within the manifest's bounds; empty stops watching. */
function AlertThreshold({ w, name, spec }: { w: UserWidget; name: string; spec: { title?: string; min: number; max: number } }) {
  const current = w.pref.alerts[name];
  const value = useSignal(current === undefined ? "" : String(current));
  useEffect(() => void (value.value = current === undefined ? "" : String(current)), [current]);
  function save(e: Event) {
    e.preventDefault();
    const alerts = { ...w.pref.alerts };
    if (value.value.trim() === "") delete alerts[name];
    else alerts[name] = Number(value.value);
    void setPreference(w, { alerts });
  }
  return (
    <form class="row" onSubmit={save}>
      <label class="grow">
        Alert me when {spec.title || name} reaches ({spec.min} to {spec.max}; empty: no alert)
        <input
          type="number"
          min={spec.min}
          max={spec.max}
          step="any"
          data-testid={`widget-alert-${name}`}
          value={value.value}
          onInput={(e) => (value.value = e.currentTarget.value)}
        />
      </label>
      <button class="btn small" data-testid={`widget-alert-save-${name}`}>
        Save
      </button>
    </form>
  );
}
