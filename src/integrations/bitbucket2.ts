// Bitbucket Cloud: the X-Event-Key header ("repo:push", "pullrequest:created", …).
// https://support.atlassian.com/bitbucket-cloud/docs/event-payloads/
import { branchesDetail, commentMessage, itemMessage, pushMessage, tagMessage, type Item } from "./git";
import { BRANCHES_OPTION, branchWanted, list, num, obj, optStr, post, str, unsupported, type Integration, type WebhookMessage } from "./types";

const PR_ACTIONS: Record<string, string> = { "pullrequest:created": "opened", "pullrequest:fulfilled": "merged", "pullrequest:rejected": "declined" };
const CLOSED_STATES = ["resolved", "invalid", "duplicate", "wontfix", "closed"];

const actor = (p: any) => optStr(p, "actor", "display_name") ?? optStr(p, "actor", "nickname") ?? "Someone";
const repoName = (p: any) => str(p, "repository", "name");
const href = (o: any) => optStr(o, "links", "html", "href");

export const bitbucket2: Integration = {
  name: "bitbucket2",
  displayName: "Bitbucket",
  description: "pushes, tags, pull requests, issues and comments from Bitbucket Cloud",
  eventTypes: [
    "repo:push",
    "pullrequest:created",
    "pullrequest:fulfilled",
    "pullrequest:rejected",
    "pullrequest:comment_created",
    "issue:created",
    "issue:updated",
    "issue:comment_created",
  ],
  urlOptions: [BRANCHES_OPTION],
  eventHeader: "X-Event-Key",
  handle({ headers, payload: p, params }) {
    const event = headers.get("x-event-key")!;
    if (event === "repo:push") {
      const messages: WebhookMessage[] = [];
      for (const change of list(p, "push", "changes")) {
        const ref = change.new ?? change.old;
        if (!ref) continue;
        const name = str(ref, "name");
        if (str(ref, "type") === "tag") {
          messages.push(tagMessage(repoName(p), actor(p), name, !change.new, href(change.new)));
          continue;
        }
        if (!branchWanted(params, name)) continue;
        const commits = (change.commits ?? []).map((c: any) => ({ sha: str(c, "hash"), message: str(c, "message"), url: href(c) }));
        messages.push(
          pushMessage({
            repo: repoName(p),
            user: actor(p),
            branch: name,
            commits,
            compareUrl: href(change),
            created: change.created === true,
            deleted: change.closed === true,
            forced: change.forced === true,
          }),
        );
      }
      return post(event, ...messages);
    }
    if (event.startsWith("pullrequest:")) {
      const pr = obj(p, "pullrequest");
      const item: Item = { repo: repoName(p), kind: "PR", id: num(pr, "id"), title: str(pr, "title"), url: href(pr), user: actor(p) };
      if (event === "pullrequest:comment_created") return post(event, commentMessage(item, href(obj(p, "comment")), optStr(p, "comment", "content", "raw")));
      const action = PR_ACTIONS[event];
      if (!action) return unsupported(event);
      return post(
        event,
        itemMessage(item, action, {
          detail: action === "opened" ? branchesDetail(optStr(pr, "source", "branch", "name"), optStr(pr, "destination", "branch", "name")) : undefined,
          body: action === "opened" ? optStr(pr, "description") : undefined,
        }),
      );
    }
    if (event.startsWith("issue:")) {
      const issue = obj(p, "issue");
      const item: Item = { repo: repoName(p), kind: "issue", id: num(issue, "id"), title: str(issue, "title"), url: href(issue), user: actor(p) };
      if (event === "issue:created") return post(event, itemMessage(item, "opened", { body: optStr(issue, "content", "raw") }));
      if (event === "issue:comment_created") return post(event, commentMessage(item, href(obj(p, "comment")), optStr(p, "comment", "content", "raw")));
      if (event === "issue:updated") {
        const state = optStr(p, "changes", "state", "new") ?? optStr(p, "changes", "status", "new");
        if (!state) return unsupported(event);
        return post(
          event,
          itemMessage(item, CLOSED_STATES.includes(state) ? `closed (${state})` : state === "open" || state === "new" ? "reopened" : `marked as ${state}`),
        );
      }
    }
    return unsupported(event);
  },
};
