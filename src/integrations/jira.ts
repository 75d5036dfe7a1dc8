// Jira (Cloud and Data Center) webhooks: the payload's `webhookEvent`. Topic: "<KEY>: <summary>".
// https://developer.atlassian.com/server/jira/platform/webhooks/
import { esc, link, obj, optList, optObj, optStr, post, str, quote, unsupported, type Integration } from "./types";

/** The issue's page, from its REST URL: https://x.atlassian.net/rest/api/2/issue/10001 → …/browse/KEY. */
const browseUrl = (issue: any, key: string) => {
  const self = optStr(issue, "self");
  const base = self?.match(/^(https?:\/\/.+?)\/rest\/api\//)?.[1];
  return base ? `${base}/browse/${key}` : undefined;
};

export const jira: Integration = {
  name: "jira",
  displayName: "Jira",
  description: "Jira issues created, updated (status, assignee, …) or deleted, and comments",
  eventTypes: ["jira:issue_created", "jira:issue_updated", "jira:issue_deleted", "comment_created", "comment_updated"],
  handle({ payload: p }) {
    const event = str(p, "webhookEvent");
    if (!["jira:issue_created", "jira:issue_updated", "jira:issue_deleted", "comment_created", "comment_updated"].includes(event)) return unsupported(event);
    const issue = obj(p, "issue");
    const key = str(issue, "key");
    const summary = str(issue, "fields", "summary");
    const topic = `${key}: ${summary}`;
    const ref = link(`${key} ${summary}`, browseUrl(issue, key));
    const who = esc(optStr(p, "user", "displayName") ?? optStr(p, "comment", "author", "displayName") ?? "Someone");
    // Jira Server reports a comment as an issue update of type issue_commented.
    if (event.startsWith("comment_") || (event === "jira:issue_updated" && p.issue_event_type_name === "issue_commented" && optObj(p, "comment"))) {
      const author = esc(optStr(p, "comment", "author", "displayName") ?? who);
      return post(event, {
        topic,
        content: `**${author}** ${event === "comment_updated" ? "edited a comment on" : "commented on"} ${ref}.${quote(optStr(p, "comment", "body"))}`,
      });
    }
    if (event === "jira:issue_created") {
      const type = optStr(issue, "fields", "issuetype", "name") ?? "issue";
      const priority = optStr(issue, "fields", "priority", "name");
      const assignee = optStr(issue, "fields", "assignee", "displayName");
      const facts = [priority && `priority **${priority}**`, assignee && `assigned to **${esc(assignee)}**`].filter(Boolean).join(", ");
      return post(event, { topic, content: `**${who}** created ${type} ${ref}${facts ? ` (${facts})` : ""}.${quote(optStr(issue, "fields", "description"))}` });
    }
    if (event === "jira:issue_deleted") return post(event, { topic, content: `**${who}** deleted ${ref}.` });
    const changes = optList(p, "changelog", "items").map(
      (c: any) => `* ${esc(String(c.field))}: ${c.fromString ? `~~${esc(String(c.fromString))}~~ → ` : ""}${esc(String(c.toString ?? "(none)"))}`,
    );
    return post(event, { topic, content: `**${who}** updated ${ref}${changes.length ? ":\n" + changes.join("\n") : "."}` });
  },
};
