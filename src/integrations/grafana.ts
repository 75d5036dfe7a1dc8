// Grafana alerting (8+: an `alerts` list, one message each) and legacy alerts (7: title, state, ruleUrl).
// https://grafana.com/docs/grafana/latest/alerting/configure-notifications/manage-contact-points/integrations/webhook-notifier/
import { bullets, link, list, optObj, optStr, post, str, type Integration, type WebhookMessage } from "./types";

const NO_END = "0001-01-01T00:00:00Z";
const when = (iso: string) => (Number.isNaN(Date.parse(iso)) ? iso : `<time:${iso}>`);
const pairs = (o: Record<string, any> | undefined) => Object.entries(o ?? {}).map(([k, v]) => [k, String(v)] as [string, string]);

function alertMessage(a: any): WebhookMessage {
  const status = str(a, "status");
  const labels = optObj(a, "labels") ?? {};
  const name = typeof labels.alertname === "string" && labels.alertname ? labels.alertname : str(a, "fingerprint");
  const lines = [`${status === "firing" ? ":alert:" : ":check:"} **${status.toUpperCase()}**: **${name}**`];
  const start = optStr(a, "startsAt");
  if (start) lines.push(`Fired ${when(start)}` + (optStr(a, "endsAt") && a.endsAt !== NO_END ? `, resolved ${when(a.endsAt)}.` : "."));
  const summary = optStr(a, "annotations", "summary") ?? optStr(a, "annotations", "description");
  if (summary) lines.push(summary);
  if (Object.keys(labels).length) lines.push("Labels:\n" + bullets(pairs(labels)));
  const values = optObj(a, "values");
  if (values && Object.keys(values).length) lines.push("Values:\n" + bullets(pairs(values)));
  const links = [
    link("Source", optStr(a, "generatorURL")),
    link("Silence", optStr(a, "silenceURL")),
    link("Dashboard", optStr(a, "dashboardURL")),
    link("Panel", optStr(a, "panelURL")),
  ];
  const present = links.filter((l) => l.startsWith("["));
  if (present.length) lines.push(present.join(" · "));
  return { topic: `[${name}]`, content: lines.join("\n\n"), event: status };
}

export const grafana: Integration = {
  name: "grafana",
  displayName: "Grafana",
  description: "Grafana alerts (unified alerting, and the legacy alerts of Grafana 7)",
  eventTypes: ["ok", "pending", "alerting", "paused", "firing", "resolved"],
  handle({ payload: p }) {
    if (p && typeof p === "object" && "alerts" in p) return post("firing", ...list(p, "alerts").map(alertMessage));
    const state = str(p, "state");
    const icon = state === "alerting" ? ":alert:" : state === "ok" ? ":check:" : ":info:";
    const matches = (Array.isArray(p.evalMatches) ? p.evalMatches : []).map((m: any) => `**${m.metric}**: ${m.value}`);
    const content = [
      `${icon} **${state.toUpperCase()}**: ${link(str(p, "ruleName"), optStr(p, "ruleUrl"))}`,
      optStr(p, "message") ?? "",
      matches.join("\n"),
      optStr(p, "imageUrl") ? link("Graph", p.imageUrl) : "",
    ]
      .filter(Boolean)
      .join("\n\n");
    return post(state, { topic: str(p, "title"), content });
  },
};
