// CircleCI webhooks (project settings → Webhooks): workflow-completed and job-completed, named by the
// payload's `type` (and the Circleci-Event-Type header). Topic: the project's name.
// https://circleci.com/docs/webhooks-reference/
import { code, esc, link, obj, optStr, post, str, unsupported, type Integration } from "./types";

const ICONS: Record<string, string> = { success: ":check:", failed: ":cross_mark:", error: ":cross_mark:", canceled: ":stop_sign:", unauthorized: ":lock:" };

export const circleci: Integration = {
  name: "circleci",
  displayName: "CircleCI",
  description: "CircleCI workflows and jobs completing (success, failure, cancel)",
  eventTypes: ["ping", "workflow-completed", "job-completed"],
  handle({ payload: p }) {
    const type = str(p, "type");
    const project = str(p, "project", "name");
    if (type === "ping") return post(type, { topic: project, content: `CircleCI webhook for **${esc(project)}** is set up.` });
    if (type !== "workflow-completed" && type !== "job-completed") return unsupported(type);
    const vcs = obj(p, "pipeline", "vcs");
    const branch = optStr(vcs, "branch") ?? optStr(vcs, "tag");
    const commit = optStr(vcs, "commit", "subject");
    const author = optStr(vcs, "commit", "author", "name");
    const workflow = obj(p, "workflow");
    const thing =
      type === "workflow-completed"
        ? { name: `workflow ${str(workflow, "name")}`, status: str(workflow, "status") }
        : { name: `job ${str(p, "job", "name")}`, status: str(p, "job", "status") };
    const url = optStr(workflow, "url");
    const lines = [`${ICONS[thing.status] ?? ":info:"} ${link(thing.name, url)} **${thing.status}**${branch ? ` on ${code(branch)}` : ""}.`];
    if (commit) lines.push(`${esc(commit)}${author ? ` (${esc(author)})` : ""}`);
    return post(type, { topic: project, content: lines.join("\n") });
  },
};
