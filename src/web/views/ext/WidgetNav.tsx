// The sidebar's Widgets section: the widgets shown in the user's nav (their label, their figure at
// rest, "new" until first opened on any of their clients, a mark while an alert they watch fires), and a + menu offering the others the team
// has not taken out of the nav. Guests see none (the server sends them no plugins).
import { useSignal } from "@preact/signals";
import { Icon } from "../../ui/icons";
import { view } from "../../store/router";
import { isHumanMember } from "./access";
import { firingAlerts, restFigure, setPreference, userWidgets } from "./widgets";

/** A plugin's glyph: an emoji as it is, an icon name as its first letter in a badge. */
export function Glyph({ glyph, name }: { glyph?: string; name: string }) {
  if (glyph && !/^[\x20-\x7e]+$/.test(glyph))
    return (
      <span class="glyph" aria-hidden="true">
        {glyph}
      </span>
    );
  return (
    <span class="glyph letter" aria-hidden="true">
      {(glyph || name).charAt(0).toUpperCase()}
    </span>
  );
}

export function WidgetNav() {
  const menuOpen = useSignal(false);
  if (!isHumanMember()) return null;
  const all = userWidgets();
  if (all.length === 0) return null;
  const shown = all.filter((w) => w.pref.shown);
  const offered = all.filter((w) => !w.pref.shown && w.team.nav !== "hidden");
  const v = view.value;
  const open = v.kind === "ext" && v.path[0] === "widget" ? `${v.path[1]}:${v.path[2]}` : "";
  return (
    <div class="sidebar-section" data-testid="widget-nav">
      <h2 class="sidebar-heading">
        <span>Widgets</span>
        {offered.length > 0 && (
          <button
            class="icon-btn small"
            aria-label="Add a widget to the nav"
            title="Add a widget"
            aria-haspopup="menu"
            aria-expanded={menuOpen.value}
            data-testid="widget-add"
            onClick={() => (menuOpen.value = !menuOpen.value)}
          >
            <Icon name="plus" size={14} />
          </button>
        )}
      </h2>
      {menuOpen.value && (
        <ul class="menu widget-menu" role="menu" onKeyDown={(e) => e.key === "Escape" && (menuOpen.value = false)}>
          {offered.map((w) => (
            <li role="none" key={`${w.plugin.id}:${w.key}`}>
              <button role="menuitem" data-testid={`widget-offer-${w.key}`} onClick={() => ((menuOpen.value = false), setPreference(w, { shown: true }))}>
                <Glyph glyph={w.plugin.manifest.glyph} name={w.plugin.name} /> {w.label}
              </button>
            </li>
          ))}
        </ul>
      )}
      <ul class="nav-list">
        {shown.map((w) => {
          const here = open === `${w.plugin.id}:${w.key}`;
          const figure = restFigure(w);
          const alerts = firingAlerts(w);
          return (
            <li key={`${w.plugin.id}:${w.key}`}>
              <a
                href={`#ext/widget/${w.plugin.id}/${encodeURIComponent(w.key)}`}
                class={`nav-item${here ? " active" : ""}`}
                aria-current={here ? "page" : undefined}
                data-testid={`widget-nav-${w.key}`}
              >
                <span class="nav-icon">
                  <Glyph glyph={w.plugin.manifest.glyph} name={w.plugin.name} />
                </span>
                <span class="nav-label">{w.label}</span>
                {w.pref.seen === null && (
                  <span class="new-badge" data-testid="widget-new">
                    new
                  </span>
                )}
                {alerts.length > 0 && (
                  <span class="alert-badge" data-testid="widget-alert" title={alerts.map((a) => `${a.title}: ${a.value}`).join(", ")}>
                    !<span class="sr-only"> Alert: {alerts.map((a) => `${a.title} ${a.value}`).join(", ")}</span>
                  </span>
                )}
                {figure !== null && (
                  <span class="muted-count" data-testid="widget-figure" title={w.pref.rest_figure ?? undefined}>
                    {figure}
                  </span>
                )}
              </a>
            </li>
          );
        })}
      </ul>
    </div>
  );
}
