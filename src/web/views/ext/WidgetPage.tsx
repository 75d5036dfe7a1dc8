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
import { setPreference, userWidgets, widgetScopes, type UserWidget } from "./widgets";

export function WidgetPage({ installId, widget }: { installId: number; widget: string }) {
  const w = userWidgets().find((x) => x.plugin.id === installId && x.key === widget);
  const fetched = useSignal(new Map<string, WidgetDocument | null>());
  useEffect(() => {
    if (!w) return;
    if (w.pref.seen === null) void setPreference(w, { seen: true });
    // Documents pushed before this tab registered are in register's ext_widgets; fetch any scope it lacks.
    for (const s of widgetScopes(w))
      if (!s.scope)
        api
          .get(`ext/widgets/${installId}/${encodeURIComponent(widget)}`, s.linkId === null ? {} : { link_id: s.linkId })
          .then((r) => (fetched.value = new Map(fetched.value).set(scopeKey(installId, widget, s.linkId), r.document)), sayError);
  }, [installId, widget, !!w]);
  if (!w)
    return (
      <section class="page">
        <p class="empty-note">This widget is not available (its plugin may have been removed).</p>
      </section>
    );
  const scopes = widgetScopes(w);
  return (
    <section class="page widget-page" aria-labelledby="widget-title" data-testid="widget-page">
      <div class="page-head">
        <h1 id="widget-title">
          <Glyph glyph={w.plugin.manifest.glyph} name={w.plugin.name} /> {w.label}
        </h1>
        <span class="hint">{w.plugin.name}</span>
      </div>
      <Preferences w={w} />
      {scopes.length === 0 && <p class="empty-note">This widget shows linked places, and its plugin is not linked anywhere yet.</p>}
      <div aria-live="polite">
        {scopes.map((s) => {
          const link = w.plugin.links.find((l) => l.id === s.linkId);
          const doc =
            s.scope?.document ??
            extWidgets.value.get(scopeKey(installId, widget, s.linkId))?.document ??
            fetched.value.get(scopeKey(installId, widget, s.linkId));
          return (
            <article key={String(s.linkId)} class="widget-doc" data-testid="widget-doc" data-version={s.scope?.version ?? 0}>
              {link && (
                <h2 class="ext-h2">
                  {link.value} ·{" "}
                  <a href={topicHref(link.stream_id, link.topic ?? "")}>
                    #{channelName(link.stream_id)}
                    {link.topic !== null && ` › ${link.topic}`}
                  </a>
                </h2>
              )}
              {doc ? <Blocks doc={doc} filters={w.pref.filters} /> : <p class="empty-note">Nothing pushed yet.</p>}
            </article>
          );
        })}
      </div>
    </section>
  );
}

const text = (v: unknown) => (v === null || v === undefined ? "" : typeof v === "object" ? JSON.stringify(v) : String(v));
const rowLabel = (item: any) => text(item?.label ?? item?.title ?? item?.name ?? item?.text ?? item);

export function Blocks({ doc, filters = {} }: { doc: WidgetDocument; filters?: Record<string, string> }) {
  const keep = (item: any) => Object.entries(filters).every(([k, v]) => typeof item !== "object" || item?.[k] === undefined || item[k] === v);
  return (
    <>
      {(doc.blocks ?? []).map((b, i) => {
        const items = (b.items ?? []).filter(keep);
        return (
          <section key={i} class={`widget-block block-${b.type}`} data-testid="widget-block" data-block-type={b.type} aria-label={b.label || b.type}>
            {b.label && <h3>{b.label}</h3>}
            {items.length === 0 ? <p class="empty-note">Nothing here.</p> : <Block type={b.type} items={items} />}
          </section>
        );
      })}
    </>
  );
}

function Block({ type, items }: { type: string; items: any[] }) {
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
                {cols.map((c) => (
                  <td key={c}>{text(it?.[c])}</td>
                ))}
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
          <span class="grow">{rowLabel(it)}</span>
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
        <button class="btn small" onClick={() => setPreference(w, { reset: ["shown", "position", "label", "filters", "alerts", "in_column", "rest_figure"] })}>
          Back to the team's defaults
        </button>
      </div>
    </details>
  );
}
