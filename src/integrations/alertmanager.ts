// Prometheus Alertmanager: alerts grouped by the label named in `name` (default: instance) into topics,
// firing and resolved ones in separate messages. `desc` names the label or annotation describing each.
// https://prometheus.io/docs/alerting/latest/configuration/#webhook_config
import { link, list, post, str, type Integration, type WebhookMessage } from "./types";

export const alertmanager: Integration = {
  name: "alertmanager",
  displayName: "Prometheus Alertmanager",
  description: "Prometheus Alertmanager alerts, one topic per instance (or the label given as name=)",
  eventTypes: null,
  urlOptions: [
    { key: "name", label: "Label that names the topic (default: instance)", input_type: "string" },
    { key: "desc", label: "Label or annotation describing the alert (default: alertname)", input_type: "string" },
  ],
  handle({ payload: p, params }) {
    const nameField = params.get("name") || "instance";
    const descField = params.get("desc") || "alertname";
    const topics = new Map<string, { firing: string[]; resolved: string[] }>();
    for (const a of list(p, "alerts")) {
      const labels = a?.labels ?? {};
      const notes = a?.annotations ?? {};
      const name = String(labels[nameField] ?? notes[nameField] ?? "(unknown)");
      const desc = String(labels[descField] ?? notes[descField] ?? `<missing field: ${descField}>`);
      const url = typeof a?.generatorURL === "string" ? a.generatorURL : undefined;
      const line = url ? `${desc} (${link("graph", url)})` : desc;
      const group = topics.get(name) ?? { firing: [], resolved: [] };
      (str(a, "status") === "resolved" ? group.resolved : group.firing).push(line);
      topics.set(name, group);
    }
    const messages: WebhookMessage[] = [];
    for (const [topic, g] of topics)
      for (const [lines, title] of [
        [g.firing, ":alert: **Firing**"],
        [g.resolved, ":check: **Resolved**"],
      ] as const) {
        if (!lines.length) continue;
        messages.push({ topic, content: lines.length === 1 ? `${title} ${lines[0]}` : `${title}\n${lines.map((l) => `* ${l}`).join("\n")}` });
      }
    return post(String(p.status ?? "firing"), ...messages);
  },
};
