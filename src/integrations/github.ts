// GitHub: the X-GitHub-Event header names the event, the payload's `action` the step.
// https://docs.github.com/en/webhooks/webhook-events-and-payloads
import { branchesDetail, commentMessage, isTagRef, itemMessage, pushMessage, refName, releaseMessage, tagMessage, type Item } from "./git";
import { BRANCHES_OPTION, branchWanted, link, num, obj, optStr, post, str, unsupported, type Integration } from "./types";

const ITEM_ACTIONS = ["opened", "closed", "reopened"];

const sender = (p: any) => optStr(p, "sender", "login") ?? "Someone";
const repoName = (p: any) => str(p, "repository", "name");

export const github: Integration = {
  name: "github",
  displayName: "GitHub",
  description: "pushes, pull requests, issues, comments and releases from GitHub (or GitHub Enterprise)",
  eventTypes: ["ping", "push_commits", "push_tags", "opened_or_update_pull_request", "closed_pull_request", "issues", "issue_comment", "release"],
  urlOptions: [BRANCHES_OPTION],
  eventHeader: "X-GitHub-Event",
  handle({ headers, payload: p, params }) {
    const event = headers.get("x-github-event")!;
    const action = optStr(p, "action");
    switch (event) {
      case "ping":
        return post("ping", {
          topic: repoName(p),
          content: `GitHub webhook for ${link(str(p, "repository", "full_name"), optStr(p, "repository", "html_url"))} is set up.`,
        });
      case "push": {
        const ref = str(p, "ref");
        if (isTagRef(ref)) return post("push_tags", tagMessage(repoName(p), sender(p), refName(ref), p.deleted === true));
        const branch = refName(ref);
        if (!branchWanted(params, branch)) return post("push_commits");
        const commits = (p.commits ?? []).map((c: any) => ({ sha: str(c, "id"), message: str(c, "message"), url: optStr(c, "url") }));
        return post(
          "push_commits",
          pushMessage({
            repo: repoName(p),
            user: sender(p),
            branch,
            commits,
            compareUrl: optStr(p, "compare"),
            created: p.created === true,
            deleted: p.deleted === true,
            forced: p.forced === true,
          }),
        );
      }
      case "pull_request": {
        const pr = obj(p, "pull_request");
        const item: Item = { repo: repoName(p), kind: "PR", id: num(pr, "number"), title: str(pr, "title"), url: optStr(pr, "html_url"), user: sender(p) };
        if (action === "closed") return post("closed_pull_request", itemMessage(item, pr.merged ? "merged" : "closed without merging"));
        if (action === "opened" || action === "reopened" || action === "ready_for_review")
          return post(
            "opened_or_update_pull_request",
            itemMessage(item, action === "ready_for_review" ? "marked ready for review" : action, {
              detail: branchesDetail(optStr(pr, "head", "ref"), optStr(pr, "base", "ref")),
              body: action === "opened" ? optStr(pr, "body") : undefined,
            }),
          );
        if (action === "synchronize") return post("opened_or_update_pull_request", itemMessage(item, "pushed new commits to"));
        return unsupported(`pull_request:${action}`);
      }
      case "issues": {
        if (!ITEM_ACTIONS.includes(action ?? "")) return unsupported(`issues:${action}`);
        const issue = obj(p, "issue");
        const item: Item = {
          repo: repoName(p),
          kind: "issue",
          id: num(issue, "number"),
          title: str(issue, "title"),
          url: optStr(issue, "html_url"),
          user: sender(p),
        };
        return post("issues", itemMessage(item, action!, { body: action === "opened" ? optStr(issue, "body") : undefined }));
      }
      case "issue_comment": {
        if (action !== "created") return unsupported(`issue_comment:${action}`);
        const issue = obj(p, "issue");
        const kind = issue.pull_request ? "PR" : "issue";
        const item: Item = { repo: repoName(p), kind, id: num(issue, "number"), title: str(issue, "title"), url: optStr(issue, "html_url"), user: sender(p) };
        return post("issue_comment", commentMessage(item, optStr(p, "comment", "html_url"), optStr(p, "comment", "body")));
      }
      case "release": {
        if (action !== "published" && action !== "created" && action !== "released") return unsupported(`release:${action}`);
        const r = obj(p, "release");
        return post(
          "release",
          releaseMessage(
            { repo: repoName(p), user: sender(p), tag: str(r, "tag_name"), name: optStr(r, "name"), url: optStr(r, "html_url"), body: optStr(r, "body") },
            action === "created" ? "created" : "published",
          ),
        );
      }
      default:
        return unsupported(event);
    }
  },
};
