// The extension layer's pages (a lazy chunk): Plugins, Organization secrets, Agent runs, and an open
// widget. One hash route each (#ext/plugins[/<id>], #ext/secrets, #ext/runs, #ext/widget/<id>/<key>, and
// #ext/widget/<id>/<key>/<item>[/<link id>] for the document of a row opened from a widget's list).
import { Plugins } from "./Plugins";
import { Runs } from "./Runs";
import { Secrets } from "./Secrets";
import { WidgetPage } from "./WidgetPage";
import { isHumanMember } from "./access";

const TABS = [
  { path: "plugins", label: "Plugins" },
  { path: "secrets", label: "Organization secrets" },
  { path: "runs", label: "Agent runs" },
] as const;

export default function ExtPages({ path }: { path: string[] }) {
  const [page = "plugins", ...rest] = path;
  if (!isHumanMember())
    return (
      <section class="page" aria-label="Plugins">
        <p class="hint">Plugins, secrets and the agent are for the organization's members.</p>
      </section>
    );
  if (page === "widget")
    return <WidgetPage installId={Number(rest[0])} widget={rest[1] ?? ""} item={rest[2] ?? ""} linkId={rest[3] ? Number(rest[3]) : null} />;
  return (
    <section class="page ext-page" aria-labelledby="ext-title" data-testid={`ext-${page}`}>
      <h1 id="ext-title" class="sr-only">
        {TABS.find((t) => t.path === page)?.label ?? "Plugins"}
      </h1>
      <nav class="ext-tabs" aria-label="Extension pages">
        {TABS.map((t) => (
          <a
            key={t.path}
            href={`#ext/${t.path}`}
            class={`ext-tab${page === t.path ? " active" : ""}`}
            aria-current={page === t.path ? "page" : undefined}
            data-testid={`ext-tab-${t.path}`}
          >
            {t.label}
          </a>
        ))}
      </nav>
      {page === "secrets" ? <Secrets /> : page === "runs" ? <Runs /> : <Plugins open={rest[0] ? Number(rest[0]) : undefined} />}
    </section>
  );
}
