// What the git forges have in common: Zulip's topic names (so a team moving from Zulip keeps its
// narrows) and one wording for pushes, pull requests, issues, comments and releases.
import { code, esc, link, quote, type WebhookMessage } from "./types";

/** Commits listed in a push message; the rest are counted. */
const MAX_COMMITS = 20;

export const branchTopic = (repo: string, branch: string) => `${repo} / ${branch}`;
/** `kind` is "PR", "MR" or "issue", as in Zulip's topics. */
export const itemTopic = (repo: string, kind: string, id: number | string, title: string) => `${repo} / ${kind} #${id} ${title}`;
export const releaseTopic = (repo: string, tag: string, name: string | undefined) => `${repo} / ${tag} ${name ?? ""}`.trimEnd();

/** "refs/heads/main" → "main"; "refs/tags/v1" → "v1". */
export const refName = (ref: string) => ref.replace(/^refs\/(heads|tags)\//, "");
export const isTagRef = (ref: string) => ref.startsWith("refs/tags/");
const ZERO_SHA = /^0+$/;
export const isZeroSha = (sha: string | undefined) => !sha || ZERO_SHA.test(sha);

export interface Commit {
  sha: string;
  message: string;
  url?: string;
  author?: string;
}

export interface Push {
  repo: string;
  user: string;
  branch: string;
  commits: Commit[];
  /** How many commits the push brought, when the forge lists only some. */
  total?: number;
  compareUrl?: string;
  created?: boolean;
  deleted?: boolean;
  forced?: boolean;
}

export function pushMessage(p: Push): WebhookMessage {
  const topic = branchTopic(p.repo, p.branch);
  const who = `**${esc(p.user)}**`;
  if (p.deleted) return { topic, content: `${who} deleted branch ${code(p.branch)}.` };
  const total = Math.max(p.total ?? 0, p.commits.length);
  if (!total) return { topic, content: `${who} ${p.created ? "created" : p.forced ? "force-pushed" : "pushed to"} branch ${code(p.branch)}.` };
  const verb = p.forced ? "force-pushed" : "pushed";
  const head = `${who} ${link(verb, p.compareUrl)} ${total} commit${total === 1 ? "" : "s"} to ${p.created ? "new " : ""}branch ${code(p.branch)}.`;
  const lines = p.commits.slice(0, MAX_COMMITS).map((c) => `* ${esc(c.message.split("\n")[0]!.trim())} (${link(c.sha.slice(0, 7), c.url)})`);
  if (total > lines.length) lines.push(`* … and ${total - lines.length} more`);
  return { topic, content: `${head}\n\n${lines.join("\n")}` };
}

export interface Item {
  repo: string;
  /** "PR", "MR" or "issue". */
  kind: string;
  id: number | string;
  title: string;
  url?: string;
  user: string;
}

/** "opened", "closed", "merged", "reopened", …; `detail` follows (branches), `body` is quoted. */
export function itemMessage(i: Item, action: string, o: { detail?: string; body?: string } = {}): WebhookMessage {
  const what = i.kind === "issue" ? "issue" : i.kind;
  const content = `**${esc(i.user)}** ${action} ${link(`${what} #${i.id} ${i.title}`, i.url)}${o.detail ? ` ${o.detail}` : ""}.${quote(o.body)}`;
  return { topic: itemTopic(i.repo, i.kind, i.id, i.title), content };
}

export const branchesDetail = (from: string | undefined, to: string | undefined) => (from && to ? `from ${code(from)} to ${code(to)}` : undefined);

export function commentMessage(i: Item, commentUrl: string | undefined, body: string | undefined): WebhookMessage {
  const what = i.kind === "issue" ? "issue" : i.kind;
  return {
    topic: itemTopic(i.repo, i.kind, i.id, i.title),
    content: `**${esc(i.user)}** ${link("commented", commentUrl)} on ${what} #${i.id} ${esc(i.title)}.${quote(body)}`,
  };
}

export interface Release {
  repo: string;
  user: string;
  tag: string;
  name?: string;
  url?: string;
  body?: string;
}

export function releaseMessage(r: Release, action = "published"): WebhookMessage {
  const title = r.name && r.name !== r.tag ? `${r.name} (${r.tag})` : r.tag;
  return { topic: releaseTopic(r.repo, r.tag, r.name), content: `**${esc(r.user)}** ${action} release ${link(title, r.url)}.${quote(r.body)}` };
}

/** A tag pushed or deleted: Zulip puts these under the repository's name. */
export function tagMessage(repo: string, user: string, tag: string, deleted: boolean, url?: string): WebhookMessage {
  return { topic: repo, content: `**${esc(user)}** ${deleted ? "deleted" : "pushed"} tag ${url && !deleted ? link(tag, url) : code(tag)}.` };
}
