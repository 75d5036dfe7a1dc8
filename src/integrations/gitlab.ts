// GitLab: the X-Gitlab-Event header ("Push Hook", "Merge Request Hook", …), then object_attributes.action.
// https://docs.gitlab.com/user/project/integrations/webhook_events/
import { branchesDetail, commentMessage, isZeroSha, itemMessage, pushMessage, refName, releaseMessage, tagMessage, type Item } from "./git";
import { BRANCHES_OPTION, branchWanted, num, obj, optList, optStr, post, str, unsupported, type Integration } from "./types";

const ACTIONS: Record<string, string> = { open: "opened", close: "closed", reopen: "reopened", merge: "merged" };

const repoName = (p: any) => str(p, "project", "name");
const userName = (p: any) => optStr(p, "user_name") ?? optStr(p, "user", "name") ?? "Someone";

export const gitlab: Integration = {
  name: "gitlab",
  displayName: "GitLab",
  description: "pushes, tags, merge requests, issues, comments and releases from GitLab",
  eventTypes: [
    "Push Hook",
    "Tag Push Hook",
    "Merge Request Hook open",
    "Merge Request Hook close",
    "Merge Request Hook reopen",
    "Merge Request Hook merge",
    "Issue Hook open",
    "Issue Hook close",
    "Issue Hook reopen",
    "Note Hook MergeRequest",
    "Note Hook Issue",
    "Release Hook",
  ],
  urlOptions: [BRANCHES_OPTION],
  eventHeader: "X-Gitlab-Event",
  handle({ headers, payload: p, params }) {
    const event = headers.get("x-gitlab-event")!.replace(/^System Hook$/, String(p?.object_kind ?? ""));
    switch (event) {
      case "Push Hook": {
        const branch = refName(str(p, "ref"));
        if (!branchWanted(params, branch)) return post(event);
        const before = optStr(p, "before");
        const after = optStr(p, "after");
        const web = optStr(p, "project", "web_url");
        const commits = optList(p, "commits").map((c: any) => ({ sha: str(c, "id"), message: str(c, "message"), url: optStr(c, "url") }));
        return post(
          event,
          pushMessage({
            repo: repoName(p),
            user: userName(p),
            branch,
            commits,
            total: typeof p.total_commits_count === "number" ? p.total_commits_count : undefined,
            compareUrl: web && before && after && !isZeroSha(before) ? `${web}/-/compare/${before}...${after}` : undefined,
            created: isZeroSha(before),
            deleted: isZeroSha(after),
          }),
        );
      }
      case "Tag Push Hook":
        return post(event, tagMessage(repoName(p), userName(p), refName(str(p, "ref")), isZeroSha(optStr(p, "after"))));
      case "Merge Request Hook":
      case "Issue Hook":
      case "Confidential Issue Hook": {
        const a = obj(p, "object_attributes");
        const action = optStr(a, "action") ?? "";
        const kind = event === "Merge Request Hook" ? "MR" : "issue";
        const name = `${event.replace(/^Confidential /, "")} ${action}`;
        if (!ACTIONS[action] || (kind === "issue" && action === "merge")) return unsupported(name);
        const item: Item = { repo: repoName(p), kind, id: num(a, "iid"), title: str(a, "title"), url: optStr(a, "url"), user: userName(p) };
        return post(
          name,
          itemMessage(item, ACTIONS[action]!, {
            detail: kind === "MR" && action === "open" ? branchesDetail(optStr(a, "source_branch"), optStr(a, "target_branch")) : undefined,
            body: action === "open" ? optStr(a, "description") : undefined,
          }),
        );
      }
      case "Note Hook":
      case "Confidential Note Hook": {
        const a = obj(p, "object_attributes");
        const type = str(a, "noteable_type");
        const name = `Note Hook ${type}`;
        const target = type === "MergeRequest" ? obj(p, "merge_request") : type === "Issue" ? obj(p, "issue") : null;
        if (!target) return unsupported(name);
        const item: Item = {
          repo: repoName(p),
          kind: type === "MergeRequest" ? "MR" : "issue",
          id: num(target, "iid"),
          title: str(target, "title"),
          user: userName(p),
        };
        return post(name, commentMessage(item, optStr(a, "url"), optStr(a, "note")));
      }
      case "Release Hook": {
        const action = optStr(p, "action");
        if (action !== "create") return unsupported(`Release Hook ${action}`);
        return post(
          event,
          releaseMessage({
            repo: repoName(p),
            user: userName(p),
            tag: str(p, "tag"),
            name: optStr(p, "name"),
            url: optStr(p, "url"),
            body: optStr(p, "description"),
          }),
        );
      }
      default:
        return unsupported(event);
    }
  },
};
