// Gitea and Forgejo (which also sends X-Gitea-Event), and through `forgeIntegration` Gogs: the event
// header names the event, the payload's `action` the step. https://docs.gitea.com/usage/webhooks
import { branchesDetail, commentMessage, isTagRef, itemMessage, pushMessage, refName, releaseMessage, tagMessage, branchTopic, type Item } from "./git";
import { BRANCHES_OPTION, branchWanted, code, num, obj, optList, optStr, post, str, unsupported, type Integration } from "./types";

const ITEM_ACTIONS = ["opened", "closed", "reopened"];

const who = (p: any) =>
  optStr(p, "sender", "login") ?? optStr(p, "sender", "username") ?? optStr(p, "pusher", "login") ?? optStr(p, "pusher", "username") ?? "Someone";
const repoName = (p: any) => str(p, "repository", "name");
const htmlUrl = (o: any) => optStr(o, "html_url") ?? optStr(o, "url");

/** One handler for the Gogs family; `headers` are tried in order for the event name. */
export function forgeIntegration(o: { name: string; displayName: string; description: string; headers: string[] }): Integration {
  return {
    name: o.name,
    displayName: o.displayName,
    description: o.description,
    eventTypes: ["push", "create", "pull_request", "issues", "issue_comment", "release"],
    urlOptions: [BRANCHES_OPTION],
    eventHeader: o.headers[0],
    handle({ headers, payload: p, params }) {
      const event = o.headers.map((h) => headers.get(h)).find((v) => v)!;
      const action = optStr(p, "action");
      switch (event) {
        case "push": {
          const ref = str(p, "ref");
          if (isTagRef(ref)) return post(event, tagMessage(repoName(p), who(p), refName(ref), false));
          const branch = refName(ref);
          if (!branchWanted(params, branch)) return post(event);
          const commits = optList(p, "commits").map((c: any) => ({ sha: str(c, "id"), message: str(c, "message"), url: optStr(c, "url") }));
          const total = typeof p.total_commits === "number" ? p.total_commits : undefined;
          return post(event, pushMessage({ repo: repoName(p), user: who(p), branch, commits, total, compareUrl: optStr(p, "compare_url") }));
        }
        case "create": {
          const ref = str(p, "ref");
          if (str(p, "ref_type") === "tag") return post(event, tagMessage(repoName(p), who(p), ref, false));
          if (!branchWanted(params, ref)) return post(event);
          return post(event, { topic: branchTopic(repoName(p), ref), content: `**${who(p)}** created branch ${code(ref)}.` });
        }
        case "pull_request": {
          const pr = obj(p, "pull_request");
          const item: Item = { repo: repoName(p), kind: "PR", id: num(pr, "number"), title: str(pr, "title"), url: htmlUrl(pr), user: who(p) };
          if (action === "closed") return post(event, itemMessage(item, pr.merged ? "merged" : "closed without merging"));
          if (action !== "opened" && action !== "reopened") return unsupported(`pull_request_${action}`);
          const head = optStr(pr, "head", "ref") ?? optStr(pr, "head_branch");
          const base = optStr(pr, "base", "ref") ?? optStr(pr, "base_branch");
          return post(event, itemMessage(item, action, { detail: branchesDetail(head, base), body: action === "opened" ? optStr(pr, "body") : undefined }));
        }
        case "issues": {
          if (!ITEM_ACTIONS.includes(action ?? "")) return unsupported(`issues_${action}`);
          const issue = obj(p, "issue");
          const item: Item = { repo: repoName(p), kind: "issue", id: num(issue, "number"), title: str(issue, "title"), url: htmlUrl(issue), user: who(p) };
          return post(event, itemMessage(item, action!, { body: action === "opened" ? optStr(issue, "body") : undefined }));
        }
        case "issue_comment": {
          if (action !== "created") return unsupported(`issue_comment_${action}`);
          const issue = obj(p, "issue");
          const isPr = p.is_pull === true || !!issue.pull_request;
          const item: Item = {
            repo: repoName(p),
            kind: isPr ? "PR" : "issue",
            id: num(issue, "number"),
            title: str(issue, "title"),
            url: htmlUrl(issue),
            user: who(p),
          };
          return post(event, commentMessage(item, htmlUrl(obj(p, "comment")), optStr(p, "comment", "body")));
        }
        case "release": {
          if (action !== "published") return unsupported(`release_${action}`);
          const r = obj(p, "release");
          return post(
            event,
            releaseMessage({ repo: repoName(p), user: who(p), tag: str(r, "tag_name"), name: optStr(r, "name"), url: htmlUrl(r), body: optStr(r, "body") }),
          );
        }
        default:
          return unsupported(event);
      }
    },
  };
}

export const gitea = forgeIntegration({
  name: "gitea",
  displayName: "Gitea",
  description: "pushes, branches, tags, pull requests, issues, comments and releases from Gitea or Forgejo",
  headers: ["x-gitea-event", "x-forgejo-event"],
});
