// Incoming webhooks: each integration gets a payload in its service's documented format (built here,
// no network), posted to a running server; the message's topic, content and sender are checked.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { ok, type Client } from "../helpers/client";
import { startServer, type TestServer } from "../helpers/server";
import { SHIPPED_INTEGRATIONS } from "../helpers/integrations";

let s: TestServer;
let ann: Client;
let bot: { id: number; key: string; email: string };
const logs: string[] = [];

beforeAll(async () => {
  s = await startServer({ log: (l) => logs.push(l), env: { CONFAB_LOG_LEVEL: "info" } });
  ann = await s.newUser({ name: "Ann" });
  await ok(ann.post("/users/me/subscriptions", { subscriptions: [{ name: "dev" }] }));
  const b = await ok(ann.post("/bots", { full_name: "Hooks", short_name: "hooks", bot_type: 2 }));
  const bots = (await ok(ann.post("/register", { fetch_event_types: ["realm_bot"] }))).realm_bots;
  bot = { id: b.user_id, key: b.api_key, email: bots.find((x: any) => x.user_id === b.user_id).email };
});
afterAll(() => s.stop());

interface Hook {
  status: number;
  body: Record<string, any>;
}

/** POSTs a payload to /api/v1/external/<name> with the bot's key and the given URL parameters. */
async function hook(
  name: string,
  payload: unknown,
  o: { headers?: Record<string, string>; params?: Record<string, string>; raw?: string; key?: string | null } = {},
): Promise<Hook> {
  const params = new URLSearchParams({ stream: "dev", ...o.params });
  if (o.key !== null) params.set("api_key", o.key ?? bot.key);
  const res = await fetch(`${s.url}/api/v1/external/${name}?${params}`, {
    method: "POST",
    headers: { "Content-Type": "application/json", ...o.headers },
    body: o.raw ?? JSON.stringify(payload),
  });
  return { status: res.status, body: (await res.json()) as Record<string, any> };
}

async function lastMessage(): Promise<any> {
  const r = await ok(ann.get("/messages", { anchor: "newest", num_before: 1, num_after: 0, apply_markdown: false }));
  return r.messages.at(-1);
}

/** The id of the webhook bot's latest message. */
async function lastFromBot(): Promise<number> {
  const r = await ok(ann.get("/messages", { anchor: "newest", num_before: 1, num_after: 0, narrow: JSON.stringify([["sender", bot.email]]) }));
  return r.messages.at(-1)?.id ?? 0;
}

const gh = (event: string) => ({ "X-GitHub-Event": event });
const ghRepo = { name: "confab", full_name: "acme/confab", html_url: "https://github.com/acme/confab" };
const ghSender = { login: "octocat" };
const glProject = { name: "widgets", web_url: "https://gitlab.com/acme/widgets" };
const giteaRepo = { name: "homelab", html_url: "https://git.home/acme/homelab" };
const bbRepo = { name: "site", links: { html: { href: "https://bitbucket.org/acme/site" } } };
const bbActor = { display_name: "Bea" };

// [name, integration, headers, payload, topic, facts in the content]
const CASES: [string, string, Record<string, string>, unknown, string, string[]][] = [
  ["json", "json", {}, { hello: "world", n: 1 }, "JSON", ['"hello": "world"', "```json"]],
  [
    "slack_incoming text",
    "slack_incoming",
    {},
    { text: "Backup *done* on <https://nas.local|nas>", channel: "#backups" },
    "backups",
    ["**done**", "[nas](https://nas.local)"],
  ],
  [
    "slack_incoming attachments (Uptime Kuma)",
    "slack_incoming",
    {},
    { text: "x", attachments: [{ title: "Kuma Alert", title_link: "https://kuma.local", fields: [{ title: "Status", value: "Down" }] }] },
    "(no topic)",
    ["## [Kuma Alert](https://kuma.local)", "**Status**: Down"],
  ],
  [
    "github push",
    "github",
    gh("push"),
    {
      ref: "refs/heads/main",
      compare: "https://github.com/acme/confab/compare/a...b",
      commits: [{ id: "abcdef1234567", message: "Fix the login\n\nlong text", url: "https://github.com/acme/confab/commit/abcdef1" }],
      repository: ghRepo,
      sender: ghSender,
      created: false,
      deleted: false,
      forced: false,
    },
    "confab / main",
    ["octocat", "1 commit", "`main`", "Fix the login", "[abcdef1](https://github.com/acme/confab/commit/abcdef1)"],
  ],
  [
    "github PR opened",
    "github",
    gh("pull_request"),
    {
      action: "opened",
      number: 7,
      pull_request: {
        number: 7,
        title: "Add SSO",
        html_url: "https://github.com/acme/confab/pull/7",
        body: "Adds SAML.",
        head: { ref: "sso" },
        base: { ref: "main" },
        merged: false,
      },
      repository: ghRepo,
      sender: ghSender,
    },
    "confab / PR #7 Add SSO",
    ["opened [PR #7 Add SSO](https://github.com/acme/confab/pull/7)", "from `sso` to `main`", "Adds SAML."],
  ],
  [
    "github PR merged",
    "github",
    gh("pull_request"),
    {
      action: "closed",
      number: 7,
      pull_request: { number: 7, title: "Add SSO", html_url: "https://github.com/acme/confab/pull/7", merged: true },
      repository: ghRepo,
      sender: ghSender,
    },
    "confab / PR #7 Add SSO",
    ["merged"],
  ],
  [
    "github issue closed",
    "github",
    gh("issues"),
    {
      action: "closed",
      issue: { number: 3, title: "Crash on start", html_url: "https://github.com/acme/confab/issues/3" },
      repository: ghRepo,
      sender: ghSender,
    },
    "confab / issue #3 Crash on start",
    ["closed [issue #3 Crash on start]"],
  ],
  [
    "github comment on a PR",
    "github",
    gh("issue_comment"),
    {
      action: "created",
      issue: { number: 7, title: "Add SSO", pull_request: {} },
      comment: { html_url: "https://github.com/acme/confab/pull/7#c1", body: "LGTM" },
      repository: ghRepo,
      sender: ghSender,
    },
    "confab / PR #7 Add SSO",
    ["[commented](https://github.com/acme/confab/pull/7#c1)", "LGTM"],
  ],
  [
    "github release",
    "github",
    gh("release"),
    {
      action: "published",
      release: { tag_name: "v1.2.0", name: "Spring", html_url: "https://github.com/acme/confab/releases/v1.2.0", body: "Notes" },
      repository: ghRepo,
      sender: ghSender,
    },
    "confab / v1.2.0 Spring",
    ["published release [Spring (v1.2.0)]"],
  ],
  [
    "gitlab push",
    "gitlab",
    { "X-Gitlab-Event": "Push Hook" },
    {
      object_kind: "push",
      before: "95790bf891e76fee5e1747ab589903a6a1f80f22",
      after: "da1560886d4f094c3e6c9ef40349f7d38b5d27d7",
      ref: "refs/heads/develop",
      user_name: "John Smith",
      project: glProject,
      commits: [
        { id: "da1560886d4f094c3e6c9ef40349f7d38b5d27d7", message: "Update Catalan translation", url: "https://gitlab.com/acme/widgets/-/commit/da15608" },
      ],
      total_commits_count: 4,
    },
    "widgets / develop",
    [
      "John Smith",
      "4 commits",
      "Update Catalan translation",
      "and 3 more",
      "/-/compare/95790bf891e76fee5e1747ab589903a6a1f80f22...da1560886d4f094c3e6c9ef40349f7d38b5d27d7",
    ],
  ],
  [
    "gitlab MR merged",
    "gitlab",
    { "X-Gitlab-Event": "Merge Request Hook" },
    {
      object_kind: "merge_request",
      user: { name: "Jo" },
      project: glProject,
      object_attributes: { iid: 12, title: "Faster builds", url: "https://gitlab.com/acme/widgets/-/merge_requests/12", action: "merge" },
    },
    "widgets / MR #12 Faster builds",
    ["**Jo** merged [MR #12 Faster builds]"],
  ],
  [
    "gitlab issue opened",
    "gitlab",
    { "X-Gitlab-Event": "Issue Hook" },
    {
      object_kind: "issue",
      user: { name: "Jo" },
      project: glProject,
      object_attributes: { iid: 4, title: "Flaky test", url: "https://gitlab.com/acme/widgets/-/issues/4", action: "open", description: "It fails sometimes" },
    },
    "widgets / issue #4 Flaky test",
    ["opened [issue #4 Flaky test]", "It fails sometimes"],
  ],
  [
    "gitlab note on MR",
    "gitlab",
    { "X-Gitlab-Event": "Note Hook" },
    {
      object_kind: "note",
      user: { name: "Jo" },
      project: glProject,
      object_attributes: { noteable_type: "MergeRequest", note: "Nice", url: "https://gitlab.com/n1" },
      merge_request: { iid: 12, title: "Faster builds" },
    },
    "widgets / MR #12 Faster builds",
    ["[commented](https://gitlab.com/n1)", "Nice"],
  ],
  [
    "gitlab release",
    "gitlab",
    { "X-Gitlab-Event": "Release Hook" },
    { object_kind: "release", action: "create", tag: "v2.0", name: "Two", url: "https://gitlab.com/acme/widgets/-/releases/v2.0", project: glProject },
    "widgets / v2.0 Two",
    ["release [Two (v2.0)]"],
  ],
  [
    "gitea push (Forgejo headers)",
    "gitea",
    { "X-Gitea-Event": "push", "X-Forgejo-Event": "push" },
    {
      ref: "refs/heads/main",
      compare_url: "https://git.home/acme/homelab/compare/1...2",
      commits: [{ id: "1234567890abcdef", message: "Bump images", url: "https://git.home/acme/homelab/commit/1234567" }],
      total_commits: 1,
      repository: giteaRepo,
      pusher: { login: "dana" },
      sender: { login: "dana" },
    },
    "homelab / main",
    ["dana", "Bump images", "1 commit"],
  ],
  [
    "gitea PR opened",
    "gitea",
    { "X-Gitea-Event": "pull_request" },
    {
      action: "opened",
      number: 2,
      pull_request: { number: 2, title: "Add grafana", html_url: "https://git.home/acme/homelab/pulls/2", head: { ref: "graf" }, base: { ref: "main" } },
      repository: giteaRepo,
      sender: { login: "dana" },
    },
    "homelab / PR #2 Add grafana",
    ["opened [PR #2 Add grafana]", "from `graf` to `main`"],
  ],
  [
    "gitea release",
    "gitea",
    { "X-Gitea-Event": "release" },
    {
      action: "published",
      release: { tag_name: "v3", name: "v3", html_url: "https://git.home/acme/homelab/releases/tag/v3" },
      repository: giteaRepo,
      sender: { login: "dana" },
    },
    "homelab / v3 v3",
    ["published release [v3]"],
  ],
  [
    "gogs issue opened",
    "gogs",
    { "X-Gogs-Event": "issues" },
    {
      action: "opened",
      issue: { number: 5, title: "Disk full", url: "https://gogs.local/acme/homelab/issues/5", body: "df says 100%" },
      repository: giteaRepo,
      sender: { username: "gus" },
    },
    "homelab / issue #5 Disk full",
    ["**gus** opened", "df says 100%"],
  ],
  [
    "gogs comment",
    "gogs",
    { "X-Gogs-Event": "issue_comment" },
    {
      action: "created",
      issue: { number: 5, title: "Disk full" },
      comment: { html_url: "https://gogs.local/c/9", body: "Cleaned up" },
      repository: giteaRepo,
      sender: { username: "gus" },
    },
    "homelab / issue #5 Disk full",
    ["Cleaned up"],
  ],
  [
    "bitbucket push",
    "bitbucket2",
    { "X-Event-Key": "repo:push" },
    {
      actor: bbActor,
      repository: bbRepo,
      push: {
        changes: [
          {
            new: { type: "branch", name: "master", target: { hash: "aaa111" } },
            old: { type: "branch", name: "master" },
            created: false,
            closed: false,
            forced: false,
            links: { html: { href: "https://bitbucket.org/acme/site/branches/compare/aaa111..bbb222" } },
            commits: [{ hash: "aaa1112223334", message: "Tweak CSS\n", links: { html: { href: "https://bitbucket.org/acme/site/commits/aaa1112" } } }],
          },
        ],
      },
    },
    "site / master",
    ["Bea", "Tweak CSS", "[aaa1112]"],
  ],
  [
    "bitbucket PR merged",
    "bitbucket2",
    { "X-Event-Key": "pullrequest:fulfilled" },
    {
      actor: bbActor,
      repository: bbRepo,
      pullrequest: { id: 9, title: "New header", links: { html: { href: "https://bitbucket.org/acme/site/pull-requests/9" } } },
    },
    "site / PR #9 New header",
    ["merged [PR #9 New header]"],
  ],
  [
    "bitbucket issue created",
    "bitbucket2",
    { "X-Event-Key": "issue:created" },
    {
      actor: bbActor,
      repository: bbRepo,
      issue: { id: 1, title: "Typo", links: { html: { href: "https://bitbucket.org/acme/site/issues/1" } }, content: { raw: "on the home page" } },
    },
    "site / issue #1 Typo",
    ["opened [issue #1 Typo]", "on the home page"],
  ],
  [
    "grafana unified alert",
    "grafana",
    {},
    {
      receiver: "confab",
      status: "firing",
      alerts: [
        {
          status: "firing",
          labels: { alertname: "DiskFull", instance: "nas:9100" },
          annotations: { summary: "Disk / is 95% full" },
          startsAt: "2024-05-01T10:00:00Z",
          endsAt: "0001-01-01T00:00:00Z",
          generatorURL: "https://grafana.local/alerting/1/view",
          fingerprint: "abc",
          silenceURL: "https://grafana.local/alerting/silence/new",
          values: { B: 95 },
        },
      ],
    },
    "[DiskFull]",
    ["FIRING", "DiskFull", "Disk / is 95% full", "instance: nas:9100", "[Silence](https://grafana.local/alerting/silence/new)"],
  ],
  [
    "grafana legacy alert",
    "grafana",
    {},
    {
      title: "[Alerting] CPU high",
      ruleName: "CPU high",
      ruleUrl: "https://grafana.local/d/1",
      state: "alerting",
      message: "Check the box",
      evalMatches: [{ metric: "cpu", value: 97 }],
    },
    "[Alerting] CPU high",
    ["ALERTING", "[CPU high](https://grafana.local/d/1)", "**cpu**: 97"],
  ],
  [
    "alertmanager",
    "alertmanager",
    {},
    {
      version: "4",
      status: "firing",
      alerts: [
        { status: "firing", labels: { alertname: "HighLoad", instance: "web1" }, annotations: {}, generatorURL: "http://prom:9090/graph?g0.expr=up&g0.tab=1" },
        { status: "firing", labels: { alertname: "SwapFull", instance: "web1" }, annotations: {}, generatorURL: "http://prom:9090/graph?g0.expr=swap" },
      ],
    },
    "web1",
    ["Firing", "* HighLoad ([graph]", "* SwapFull"],
  ],
  [
    "uptimerobot down",
    "uptimerobot",
    {},
    {
      monitor_url: "https://example.org",
      monitor_friendly_name: "Website",
      alert_type: "1",
      alert_type_friendly_name: "Down",
      alert_details: "Connection Timeout",
      alert_friendly_duration: "",
    },
    "Website",
    ["**Website** (https://example.org) is **down**", "Connection Timeout"],
  ],
  ["homeassistant", "homeassistant", {}, { message: "The front door opened", topic: "Doors" }, "Doors", ["The front door opened"]],
  ["homeassistant default topic", "homeassistant", {}, { message: "Washer done" }, "homeassistant", ["Washer done"]],
  [
    "sonarr download",
    "sonarr",
    {},
    { eventType: "Download", isUpgrade: false, series: { id: 1, title: "The Expanse" }, episodes: [{ seasonNumber: 2, episodeNumber: 5, title: "Home" }] },
    "The Expanse",
    ["**The Expanse** S02E05 Home was imported"],
  ],
  [
    "sonarr health",
    "sonarr",
    {},
    { eventType: "Health", level: "warning", message: "Indexers unavailable", type: "IndexerStatusCheck" },
    "Health warning",
    ["Indexers unavailable"],
  ],
  [
    "radarr grab",
    "radarr",
    {},
    { eventType: "Grab", movie: { id: 3, title: "Arrival", year: 2016 }, release: { quality: "Bluray-1080p" } },
    "Arrival",
    ["**Arrival** (2016) was grabbed (Bluray-1080p)"],
  ],
  ["radarr test", "radarr", {}, { eventType: "Test", movie: { title: "Test Title" } }, "Radarr - Test", ["Radarr is connected"]],
  [
    "lidarr download",
    "lidarr",
    {},
    { eventType: "Download", artist: { name: "Daft Punk" }, albums: [{ title: "Discovery" }] },
    "Daft Punk",
    ["**Discovery** by Daft Punk was imported"],
  ],
  [
    "sentry issue created",
    "sentry",
    { "Sentry-Hook-Resource": "issue" },
    {
      action: "created",
      data: {
        issue: { title: "TypeError: x is undefined", shortId: "WEB-12", web_url: "https://sentry.io/issues/12/", level: "error", culprit: "app.js in render" },
      },
      actor: { name: "Sentry" },
    },
    "TypeError: x is undefined",
    ["New issue", "[WEB-12 TypeError: x is undefined](https://sentry.io/issues/12/)", "level **error**"],
  ],
  [
    "sentry event alert",
    "sentry",
    { "Sentry-Hook-Resource": "event_alert" },
    { action: "triggered", data: { event: { title: "ZeroDivisionError", web_url: "https://sentry.io/e/1", level: "error" }, triggered_rule: "Any error" } },
    "ZeroDivisionError",
    ["Alert (Any error)", "[ZeroDivisionError](https://sentry.io/e/1)"],
  ],
  [
    "sentry legacy webhook",
    "sentry",
    {},
    { project_name: "api", message: "Boom", url: "https://sentry.io/x/1", level: "error", culprit: "views.py", event: { title: "Boom in views" } },
    "Boom in views",
    ["[Boom in views](https://sentry.io/x/1)", "**api**"],
  ],
  ["ifttt", "ifttt", {}, { topic: "Weather", content: "Rain tomorrow" }, "Weather", ["Rain tomorrow"]],
  [
    "jira issue created",
    "jira",
    {},
    {
      webhookEvent: "jira:issue_created",
      user: { displayName: "Jane" },
      issue: {
        key: "OPS-17",
        self: "https://acme.atlassian.net/rest/api/2/issue/10017",
        fields: { summary: "Renew certificate", issuetype: { name: "Task" }, priority: { name: "High" } },
      },
    },
    "OPS-17: Renew certificate",
    ["**Jane** created Task [OPS-17 Renew certificate](https://acme.atlassian.net/browse/OPS-17)", "priority **High**"],
  ],
  [
    "jira issue updated",
    "jira",
    {},
    {
      webhookEvent: "jira:issue_updated",
      user: { displayName: "Jane" },
      issue: { key: "OPS-17", self: "https://acme.atlassian.net/rest/api/2/issue/10017", fields: { summary: "Renew certificate" } },
      changelog: { items: [{ field: "status", fromString: "To Do", toString: "Done" }] },
    },
    "OPS-17: Renew certificate",
    ["updated", "status: ~~To Do~~ → Done"],
  ],
  [
    "jira comment",
    "jira",
    {},
    {
      webhookEvent: "comment_created",
      comment: { body: "Done on prod", author: { displayName: "Raj" } },
      issue: { key: "OPS-17", fields: { summary: "Renew certificate" } },
    },
    "OPS-17: Renew certificate",
    ["**Raj** commented on", "Done on prod"],
  ],
  [
    "circleci workflow",
    "circleci",
    { "circleci-event-type": "workflow-completed" },
    {
      type: "workflow-completed",
      project: { name: "api", slug: "gh/acme/api" },
      pipeline: { number: 130, vcs: { branch: "main", commit: { subject: "Add tests", author: { name: "Kim" } } } },
      workflow: { name: "build-test", status: "failed", url: "https://app.circleci.com/pipelines/gh/acme/api/130/workflows/1" },
    },
    "api",
    ["[workflow build-test](https://app.circleci.com/pipelines/gh/acme/api/130/workflows/1) **failed** on `main`", "Add tests (Kim)"],
  ],
];

describe("incoming webhooks: each integration posts the documented payload as the bot", () => {
  for (const [title, name, headers, payload, topic, facts] of CASES)
    test(title, async () => {
      const r = await hook(name, payload, { headers });
      expect(r).toEqual({ status: 200, body: { result: "success", msg: "" } });
      const m = await lastMessage();
      expect({ sender: m.sender_id, topic: m.subject, stream: m.display_recipient }).toEqual({ sender: bot.id, topic, stream: "dev" });
      for (const f of facts) expect(m.content).toContain(f);
    });
});

// [integration, headers, payload, the event named in the answer]
const UNSUPPORTED: [string, Record<string, string>, unknown, string][] = [
  ["github", gh("watch"), { action: "started", repository: ghRepo, sender: ghSender }, "watch"],
  ["github", gh("pull_request"), { action: "labeled", pull_request: { number: 1, title: "x" }, repository: ghRepo }, "pull_request:labeled"],
  ["gitlab", { "X-Gitlab-Event": "Pipeline Hook" }, { object_kind: "pipeline", project: glProject }, "Pipeline Hook"],
  ["gitea", { "X-Gitea-Event": "fork" }, { repository: giteaRepo }, "fork"],
  ["gogs", { "X-Gogs-Event": "issues" }, { action: "label_updated", issue: { number: 1, title: "x" }, repository: giteaRepo }, "issues_label_updated"],
  ["bitbucket2", { "X-Event-Key": "repo:fork" }, { repository: bbRepo }, "repo:fork"],
  ["uptimerobot", {}, { monitor_friendly_name: "W", alert_type_friendly_name: "SSL expiry" }, "SSL expiry"],
  ["sonarr", {}, { eventType: "ManualInteractionRequired", series: { title: "X" } }, "ManualInteractionRequired"],
  ["radarr", {}, { eventType: "ManualInteractionRequired", movie: { title: "X" } }, "ManualInteractionRequired"],
  ["lidarr", {}, { eventType: "AlbumDelete", artist: { name: "X" } }, "AlbumDelete"],
  ["sentry", { "Sentry-Hook-Resource": "metric_alert" }, { action: "critical", data: {} }, "metric_alert"],
  ["jira", {}, { webhookEvent: "sprint_started" }, "sprint_started"],
  ["circleci", {}, { type: "pipeline-created", project: { name: "api" } }, "pipeline-created"],
];

describe("unsupported events get Zulip's answer (200, UNSUPPORTED_WEBHOOK_EVENT_TYPE) and post nothing", () => {
  test("each integration", async () => {
    const before = (await lastMessage()).id;
    for (const [name, headers, payload, event] of UNSUPPORTED) {
      const r = await hook(name, payload, { headers });
      expect(r.status).toBe(200);
      expect(r.body).toMatchObject({ result: "error", code: "UNSUPPORTED_WEBHOOK_EVENT_TYPE", event_type: event });
      expect(r.body.msg).toMatch(
        new RegExp(`^The '${event.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}' event isn't currently supported by the .+ webhook; ignoring$`),
      );
    }
    expect((await lastMessage()).id).toBe(before);
  });

  test("logged once per integration and event, not per request", async () => {
    const count = () => logs.filter((l) => l.includes("unsupported webhook event") && l.includes("deployment")).length;
    for (let i = 0; i < 3; i++) await hook("github", { repository: ghRepo }, { headers: gh("deployment") });
    expect(count()).toBe(1);
  });
});

describe("URL parameters, as Zulip reads them", () => {
  const push = (branch: string) => ({
    ref: `refs/heads/${branch}`,
    commits: [{ id: "1234567abc", message: `on ${branch}` }],
    repository: ghRepo,
    sender: ghSender,
  });

  test("no stream: a direct message to the bot's owner", async () => {
    const params = new URLSearchParams({ api_key: bot.key });
    const res = await fetch(`${s.url}/api/v1/external/homeassistant?${params}`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ message: "Just for Ann" }),
    });
    expect(await res.json()).toEqual({ result: "success", msg: "" });
    const m = await lastMessage();
    expect({ type: m.type, sender: m.sender_id, content: m.content, to: m.display_recipient.map((u: any) => u.id).sort() }).toEqual({
      type: "private",
      sender: bot.id,
      content: "Just for Ann",
      to: [ann.userId, bot.id].sort(),
    });
  });

  test("stream by id, topic overrides the integration's, Basic auth instead of api_key", async () => {
    const { stream_id } = await ok(ann.get("/get_stream_id", { stream: "dev" }));
    const auth = "Basic " + Buffer.from(`${bot.email}:${bot.key}`).toString("base64");
    const r = await hook(
      "homeassistant",
      { message: "By id", topic: "ignored" },
      { key: null, headers: { Authorization: auth }, params: { stream: String(stream_id), topic: "Chosen" } },
    );
    expect(r.body.result).toBe("success");
    expect(await lastMessage()).toMatchObject({ display_recipient: "dev", subject: "Chosen", content: "By id", sender_id: bot.id });
  });

  test("branches= filters pushes; only_events and exclude_events filter events with shell patterns", async () => {
    const before = (await lastMessage()).id;
    expect((await hook("github", push("feature"), { headers: gh("push"), params: { branches: "main,release" } })).body.result).toBe("success");
    expect((await lastMessage()).id).toBe(before);
    await hook("github", push("release"), { headers: gh("push"), params: { branches: "main,release" } });
    expect((await lastMessage()).content).toContain("on release");
    const last = (await lastMessage()).id;
    await hook("github", push("main"), { headers: gh("push"), params: { only_events: JSON.stringify(["issue*", "release"]) } });
    await hook("github", push("main"), { headers: gh("push"), params: { exclude_events: JSON.stringify(["push_*"]) } });
    expect((await lastMessage()).id).toBe(last);
    await hook("github", push("main"), { headers: gh("push"), params: { only_events: JSON.stringify(["push_commits"]) } });
    expect((await lastMessage()).id).toBeGreaterThan(last);
    const bad = await hook("github", push("main"), { headers: gh("push"), params: { only_events: "push" } });
    expect(bad).toEqual({ status: 400, body: { result: "error", code: "BAD_REQUEST", msg: "only_events is not valid JSON" } });
  });

  test("a channel that does not exist: the service hears success, the owner is told", async () => {
    const r = await hook("homeassistant", { message: "lost" }, { params: { stream: "nowhere" } });
    expect(r.body.result).toBe("success");
    const m = await lastMessage();
    expect(m.type).toBe("private");
    expect(m.content).toContain("channel #nowhere, but that channel does not exist");
  });
});

describe("bad input: clear errors, nothing posted, the server keeps answering", () => {
  test("keys, bots, integrations, headers and payloads", async () => {
    const before = await lastFromBot();
    const msg = { message: "x" };
    expect(await hook("homeassistant", msg, { key: "wrong" })).toEqual({
      status: 401,
      body: { result: "error", code: "INVALID_API_KEY", msg: "Invalid API key" },
    });
    expect(await hook("homeassistant", msg, { key: null })).toEqual({
      status: 400,
      body: { result: "error", code: "REQUEST_VARIABLE_MISSING", msg: "Missing 'api_key' argument", var_name: "api_key" },
    });
    const generic = await ok(ann.post("/bots", { full_name: "Generic", short_name: "generic" }));
    expect(await hook("homeassistant", msg, { key: generic.api_key })).toEqual({
      status: 400,
      body: { result: "error", code: "BAD_REQUEST", msg: "Only incoming webhook bots can use this endpoint" },
    });
    expect((await hook("homeassistant", msg, { key: ann.apiKey! })).body.code).toBe("BAD_REQUEST");
    expect(await hook("nosuch", msg)).toEqual({ status: 404, body: { result: "error", code: "NOT_FOUND", msg: "Not Found" } });
    expect(await hook("github", { repository: ghRepo })).toEqual({
      status: 400,
      body: { result: "error", code: "MISSING_HTTP_EVENT_HEADER", msg: "Missing the HTTP event header 'X-GitHub-Event'", header: "X-GitHub-Event" },
    });
    // The owner hears why (once, however often the service tries).
    const notice = await lastMessage();
    expect(notice.type).toBe("private");
    expect(notice.content).toContain("without the HTTP header `X-GitHub-Event`");
    await hook("github", { repository: ghRepo });
    expect((await lastMessage()).id).toBe(notice.id);
    expect(await hook("homeassistant", null, { raw: "{not json" })).toEqual({
      status: 400,
      body: { result: "error", code: "BAD_REQUEST", msg: "Malformed JSON" },
    });
    expect(await hook("homeassistant", { topic: "t" })).toEqual({
      status: 400,
      body: { result: "error", code: "BAD_REQUEST", msg: 'payload["message"] is missing' },
    });
    expect(await hook("ifttt", { topic: "t" })).toEqual({ status: 400, body: { result: "error", code: "BAD_REQUEST", msg: "Content can't be empty" } });
    expect(await hook("github", "a string", { headers: gh("push") })).toEqual({
      status: 400,
      body: { result: "error", code: "BAD_REQUEST", msg: 'payload["ref"] is missing' },
    });
    expect(await hook("sonarr", [1, 2])).toEqual({ status: 400, body: { result: "error", code: "BAD_REQUEST", msg: 'payload["eventType"] is missing' } });
    // A payload of another service's shape deep inside: Zulip's "did X generate this?".
    expect(await hook("github", { ref: "refs/heads/main", commits: "not a list", repository: ghRepo }, { headers: gh("push") })).toEqual({
      status: 400,
      body: { result: "error", code: "ANOMALOUS_WEBHOOK_PAYLOAD", msg: "Unable to parse request: Did GitHub generate this event?", webhook_name: "GitHub" },
    });
    const huge = JSON.stringify({ message: "x".repeat(6 * 1024 * 1024) });
    expect(await hook("homeassistant", null, { raw: huge })).toEqual({
      status: 413,
      body: { result: "error", code: "BAD_REQUEST", msg: "Request body too large" },
    });
    expect(await lastFromBot()).toBe(before);
  });

  test("a deactivated bot's key is refused", async () => {
    const b = await ok(ann.post("/bots", { full_name: "Old", short_name: "old", bot_type: 2 }));
    await ok(ann.delete(`/bots/${b.user_id}`));
    expect(await hook("homeassistant", { message: "x" }, { key: b.api_key })).toEqual({
      status: 401,
      body: { result: "error", code: "USER_DEACTIVATED", msg: "Account is deactivated" },
    });
    expect((await ok(ann.get("/users/me"))).result).toBe("success");
  });

  test("register lists the integrations for the bot page", async () => {
    const r = await ok(ann.post("/register", { fetch_event_types: ["realm_incoming_webhook_bots"] }));
    const names = r.realm_incoming_webhook_bots.map((i: any) => i.name);
    for (const n of SHIPPED_INTEGRATIONS) expect(names).toContain(n);
    expect(r.realm_incoming_webhook_bots.find((i: any) => i.name === "github")).toMatchObject({
      display_name: "GitHub",
      all_event_types: expect.arrayContaining(["push_commits", "issues"]),
      url_options: [{ key: "branches", label: expect.any(String), input_type: "string" }],
    });
  });
});
