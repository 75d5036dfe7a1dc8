// Sentry: internal integrations (the Sentry-Hook-Resource header: issue, event_alert, error) and the
// legacy webhook plugin (no header: project, level, url, event). Topic: the issue's or event's title.
// https://docs.sentry.io/organization/integrations/integration-platform/webhooks/
import { code, esc, link, obj, optObj, optStr, post, str, unsupported, type Integration } from "./types";

const ISSUE_ACTIONS: Record<string, string> = {
  created: "New issue",
  resolved: "Resolved",
  assigned: "Assigned",
  ignored: "Ignored",
  unresolved: "Unresolved",
};

/** "level **error** in `app.js in render` (javascript)": what is known of an issue or event. */
function facts(o: any): string {
  const level = optStr(o, "level");
  const where = optStr(o, "culprit") ?? optStr(o, "location");
  const platform = optStr(o, "platform");
  return [level && `level **${level}**`, where && `in ${code(where)}`, platform && `(${platform})`].filter(Boolean).join(" ");
}

export const sentry: Integration = {
  name: "sentry",
  displayName: "Sentry",
  description: "Sentry issues (created, resolved, assigned, ignored), alert-rule events and errors",
  eventTypes: ["issue_created", "issue_resolved", "issue_assigned", "issue_ignored", "issue_unresolved", "event_alert", "error", "legacy"],
  handle({ headers, payload: p }) {
    const resource = headers.get("sentry-hook-resource");
    if (!resource) {
      // The legacy webhook plugin.
      const event = optObj(p, "event") ?? {};
      const title = optStr(event, "title") ?? str(p, "message");
      const details = facts({ ...event, level: p.level ?? event.level, culprit: p.culprit ?? event.culprit });
      const content = `:warning: ${link(title, optStr(p, "url"))} in project **${esc(optStr(p, "project_name") ?? optStr(p, "project") ?? "?")}**${details ? `, ${details}` : ""}.`;
      return post("legacy", { topic: title, content });
    }
    const action = optStr(p, "action") ?? "";
    if (resource === "installation") return unsupported(`installation_${action}`);
    if (resource === "issue") {
      const verb = ISSUE_ACTIONS[action];
      if (!verb) return unsupported(`issue_${action}`);
      const issue = obj(p, "data", "issue");
      const title = str(issue, "title");
      const url = optStr(issue, "web_url") ?? optStr(issue, "permalink");
      const who = optStr(p, "actor", "name");
      const id = optStr(issue, "shortId");
      return post(`issue_${action}`, {
        topic: title,
        content: `**${verb}**: ${link(id ? `${id} ${title}` : title, url)}${facts(issue) ? ` ${facts(issue)}` : ""}${who && action !== "created" ? ` by ${esc(who)}` : ""}.`,
      });
    }
    if (resource === "event_alert" || resource === "error") {
      const e = obj(p, "data", resource === "error" ? "error" : "event");
      const title = str(e, "title");
      const rule = optStr(p, "data", "triggered_rule");
      const head = resource === "error" ? "Error" : `Alert${rule ? ` (${esc(rule)})` : ""}`;
      return post(resource, {
        topic: title,
        content: `:warning: **${head}**: ${link(title, optStr(e, "web_url") ?? optStr(e, "url"))}${facts(e) ? ` ${facts(e)}` : ""}.`,
      });
    }
    return unsupported(resource);
  },
};
