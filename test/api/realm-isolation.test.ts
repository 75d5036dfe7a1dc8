// Isolation between organizations on one server: for every route of the table that names something by
// id (or by a name kept per organization), the owner of one organization who names a thing of the other
// gets exactly the answer for a thing that does not exist — same status, code and msg (the id aside) —
// and the other organization's thing is untouched. Driven from the route table: a new route whose path
// names a kind this file cannot create in the other organization fails the first test until it is added.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { cpSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createRealm } from "../../src/actions/realms";
import { startRun } from "../../src/actions/agent-runs";
import { importIntoRepository } from "../../src/actions/repositories";
import type { Endpoint } from "../../src/http/endpoint";
import type { Param } from "../../src/domain/params";
import { routes } from "../../src/http/routes";
import { findChannel } from "../../src/store/channels";
import { FIXTURES } from "../fixtures/plugins/helpers";
import { Client, ok } from "../helpers/client";
import { startServer, type TestServer } from "../helpers/server";

/** A client of the organization at `host` (realms are picked by the Host header). */
class HostClient extends Client {
  constructor(
    base: string,
    email: string,
    key: string,
    userId: number,
    readonly host: string,
  ) {
    super(base, email, key, userId);
  }
  protected override sessionHeaders() {
    return { Host: this.host };
  }
}

/** A 1×1 transparent PNG. */
const PNG = Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==", "base64");

let s: TestServer;
let boss: HostClient;
const scratch = mkdtempSync(join(tmpdir(), "confab-isolation-"));
/** What the other organization holds, by the parameter name that names it. */
const foreign: Record<string, string> = {};
/** Body parameters that carry ids of these kinds; the path parameter of the same kind lends its value. */
const BODY_IDS: Record<string, string> = {
  stream_id: "stream_id",
  stream_ids: "stream_id",
  subscribers: "user_id",
  members: "user_id",
  user_ids: "user_id",
  to: "user_id",
  add: "user_id",
  delete: "user_id",
  message_id: "message_id",
  message_ids: "message_id",
  msg_ids: "message_id",
  group_ids: "user_group_id",
  folder_id: "channel_folder_id",
  source_repository_id: "repository_id",
  repository_id: "repository_id",
  link_id: "link_id",
  bot_owner_id: "user_id",
  sender_id: "user_id",
  ordered_linkifier_ids: "filter_id",
  moderation_request_channel_id: "stream_id",
  new_stream_announcements_stream_id: "stream_id",
  signup_announcements_stream_id: "stream_id",
  zulip_update_announcements_stream_id: "stream_id",
};
/** Names that need nothing of their own kind: they are looked up inside a thing named before them in the path. */
const INNER = new Set(["tool", "widget", "filename"]);

beforeAll(async () => {
  // An agent is configured (so its routes look runs up) but never started: the run below is made directly.
  s = await startServer({ env: { CONFAB_EXTERNAL_URL: "http://confab.test", CONFAB_AGENT_COMMAND: JSON.stringify(["false"]) } });
  const acme = await createRealm(s.app, { stringId: "acme", name: "Acme", ownerEmail: "boss@acme.test", ownerName: "Boss", ownerPassword: "acme-secret" });
  boss = new HostClient(s.url, acme.owner.email, acme.owner.apiKey, acme.owner.id, `acme.confab.test:${new URL(s.url).port}`);
  const u = (await ok(boss.post("/users", { email: "wile@acme.test", password: "coyote-1", full_name: "Wile" }))).user_id;
  const channel = (await ok(boss.post("/channels/create", { name: "acme-only", subscribers: [u, boss.userId] }))).id;
  const message = (await ok(boss.post("/messages", { type: "stream", to: channel, topic: "plans", content: "rockets" }))).id;
  const bot = (await ok(boss.post("/bots", { full_name: "Acme Bot", short_name: "acmebot", bot_type: 1 }))).user_id;
  const group = (await ok(boss.post("/user_groups/create", { name: "roadrunners", description: "x", members: [u] }))).group_id;
  const field = (await ok(boss.post("/realm/profile_fields", { name: "Phone", field_type: 1 }))).id;
  const draft = (await ok(boss.post("/drafts", { drafts: [{ type: "stream", to: [channel], topic: "t", content: "d" }] }))).ids[0];
  const snippet = (await ok(boss.post("/saved_snippets", { title: "s", content: "c" }))).saved_snippet_id;
  await ok(boss.post("/navigation_views", { fragment: "narrow/channel/acme-only", is_pinned: true, name: "Acme view" }));
  await ok(boss.post("/invites/multiuse", { stream_ids: [channel] }));
  const invite = (await ok(boss.get("/invites"))).invites[0].id;
  await ok(boss.post("/realm/emoji/acme_only", {}, { files: [new File([PNG], "e.png", { type: "image/png" })] }));
  const folder = (await ok(boss.post("/channel_folders/create", { name: "Acme folder" }))).channel_folder_id;
  const filter = (await ok(boss.post("/realm/filters", { pattern: "ACME-(?P<id>[0-9]+)", url_template: "https://acme.test/{id}" }))).id;
  const playground = (await ok(boss.post("/realm/playgrounds", { name: "Acme", pygments_language: "Python", url_template: "https://acme.test/{code}" }))).id;
  await ok(boss.post("/realm/domains", { domain: "acme.test", allow_subdomains: false }));
  await ok(boss.post("/ext/secrets", { name: "ACME_TOKEN", secret: "s3cret" }, { unchecked: true }));
  const scheduled = (
    await ok(
      boss.post("/scheduled_messages", {
        type: "stream",
        to: channel,
        topic: "t",
        content: "later",
        scheduled_delivery_timestamp: Math.floor(Date.now() / 1000) + 86_400,
      }),
    )
  ).scheduled_message_id;
  const reminder = (await ok(boss.post("/reminders", { message_id: message, scheduled_delivery_timestamp: Math.floor(Date.now() / 1000) + 86_400 })))
    .reminder_id;
  const upload = (await ok(boss.post("/user_uploads", {}, { files: [new File(["acme"], "plan.txt", { type: "text/plain" })] }))).url as string;
  const attachment = (await ok(boss.get("/attachments"))).attachments[0].id;
  const repository = (await ok(boss.post("/ext/repositories", { name: "acme-repo" }, { unchecked: true }))).repository.id;
  const tree = mkdtempSync(join(scratch, "tree-"));
  writeFileSync(join(tree, "README.md"), "# Acme\n");
  cpSync(join(FIXTURES, "answering"), join(tree, "answering"), { recursive: true });
  await importIntoRepository(s.app, acme.realm, null, repository, tree);
  const workspace = (await ok(boss.post("/ext/workspaces", { stream_id: channel, topic: "plans", repository_id: repository }, { unchecked: true }))).workspace
    .workspace_uuid;
  await ok(boss.post("/users/me/muted_users/" + u));
  const install = (
    await ok(boss.post("/ext/plugins", { source_kind: "local", source_repository_id: repository, source_path: "answering" }, { unchecked: true }))
  ).plugin.id;
  const link = (await ok(boss.post(`/ext/plugins/${install}/links`, { kind: "project", value: "web", stream_id: channel }, { unchecked: true }))).link.id;
  const recipientId = (await findChannel(s.app.db, channel))!.recipientId;
  const run = (
    await startRun(s.app, {
      realmId: acme.realm.id,
      messageId: message,
      senderId: boss.userId!,
      recipientId,
      channelId: channel,
      topic: "plans",
      participantIds: [],
      mentionedUserIds: [],
    })
  ).run.id;
  Object.assign(foreign, {
    user_id: String(u),
    email: "wile@acme.test",
    user_id_or_email: String(u),
    muted_user_id: String(u),
    bot_id: String(bot),
    user_group_id: String(group),
    stream_id: String(channel),
    message_id: String(message),
    field_id: String(field),
    draft_id: String(draft),
    saved_snippet_id: String(snippet),
    fragment: "narrow/channel/acme-only",
    invite_id: String(invite),
    channel_folder_id: String(folder),
    filter_id: String(filter),
    playground_id: String(playground),
    domain: "acme.test",
    name: "ACME_TOKEN",
    scheduled_message_id: String(scheduled),
    reminder_id: String(reminder),
    attachment_id: String(attachment),
    realm_id_str: upload.split("/")[2]!,
    repository_id: String(repository),
    workspace_uuid: workspace,
    emoji_name: "acme_only",
    install_id: String(install),
    link_id: String(link),
    run_id: String(run),
  });
}, 60_000);
afterAll(async () => {
  await s.stop();
  rmSync(scratch, { recursive: true, force: true });
});

const pathParams = (ep: Endpoint) => (Object.entries(ep.params) as [string, Param<unknown>][]).filter(([, prm]) => prm.source === "path").map(([n]) => n);

test("every kind a path names has a thing of the other organization to try", () => {
  const uncovered = [...new Set(routes.flatMap(pathParams))].filter((n) => !(n in foreign) && !INNER.has(n));
  expect(uncovered).toEqual([]);
  expect(Object.entries(foreign).filter(([, v]) => !v || v === "undefined")).toEqual([]);
});

/** Minimal values for the other required parameters, so the id is what the answer turns on where it can. */
function filler(prm: Param<unknown>): string {
  const d = prm.describe;
  if (d.startsWith("one of ")) return d.slice(7).split(", ")[0]!;
  if (d === "boolean") return "false";
  if (d.startsWith("integer")) return "1";
  if (d.startsWith("list")) return "[]";
  if (d === "string" || d === "JSON or text") return "x";
  return "{}";
}

async function answer(ep: Endpoint, path: Record<string, string>, body: Record<string, string>) {
  let url = ep.path;
  for (const [n, v] of Object.entries(path)) url = url.replace(`{${n}}`, n === "filename" ? v : encodeURIComponent(v));
  const form = new URLSearchParams(body);
  const get = ep.method === "GET";
  const res = await fetch(`${s.url}/api/v1${url}${get && Object.keys(body).length ? `?${form}` : ""}`, {
    method: ep.method,
    headers: { Authorization: s.owner.auth!, ...(get ? {} : { "Content-Type": "application/x-www-form-urlencoded" }) },
    body: get ? undefined : form.toString(),
  });
  const text = await res.text();
  let json: { code?: string; msg?: string; result?: string } = {};
  try {
    json = JSON.parse(text);
  } catch {
    json = { msg: text.slice(0, 100) };
  }
  return { status: res.status, code: json.code, result: json.result, msg: json.msg };
}

/** The answer with the tried value taken out of its text. */
const strip = (a: Awaited<ReturnType<typeof answer>>, values: string[]) => ({ ...a, msg: values.reduce((m, v) => m?.split(v).join("<id>"), a.msg) });

const MISSING: Record<string, string> = {
  email: "nobody@nowhere.test",
  user_id_or_email: "987654",
  domain: "nowhere.test",
  name: "NO_SUCH_SECRET",
  fragment: "narrow/channel/nowhere",
  workspace_uuid: "00000000-0000-4000-8000-000000000000",
  emoji_name: "no_such_emoji",
  realm_id_str: "987654",
};
const missing = (n: string) => MISSING[n] ?? "987654";

test("naming another organization's thing answers as naming nothing, on every route", async () => {
  const leaks: unknown[] = [];
  for (const ep of routes) {
    if (ep.auth === "none") continue;
    const inPath = pathParams(ep);
    const entries = Object.entries(ep.params) as [string, Param<unknown>][];
    const base: Record<string, string> = Object.fromEntries(
      entries.filter(([, prm]) => prm.source !== "path" && prm.required).map(([n, prm]) => [n, filler(prm)]),
    );
    const innerPath = Object.fromEntries(inPath.filter((n) => INNER.has(n)).map((n) => [n, n === "filename" ? "x/plan.txt" : "x"]));
    // Each id the route takes, in its path or its body, tried alone with the others plausible.
    const tries: {
      label: string;
      path: (v: (n: string) => string) => Record<string, string>;
      body: (v: (n: string) => string) => Record<string, string>;
      kind: string;
    }[] = [];
    for (const n of inPath.filter((n) => !INNER.has(n)))
      tries.push({
        label: n,
        kind: n,
        path: (v) => ({ ...innerPath, ...Object.fromEntries(inPath.filter((m) => !INNER.has(m)).map((m) => [m, m === n ? v(m) : missing(m)])) }),
        body: () => base,
      });
    // (Where the path names a thing too, its own tries cover the route.)
    if (!inPath.some((n) => !INNER.has(n)))
      for (const [n, prm] of entries) {
        const kind = BODY_IDS[n];
        if (prm.source === "path" || !kind) continue;
        const list = prm.describe.startsWith("list") || prm.describe.includes("list of");
        tries.push({
          label: `body ${n}`,
          kind,
          path: () => innerPath,
          body: (v) => ({ ...base, [n]: list ? `[${v(kind)}]` : v(kind) }),
        });
      }
    for (const t of tries) {
      const none = await answer(ep, t.path(missing), t.body(missing));
      const theirs = await answer(
        ep,
        t.path((k) => foreign[k]!),
        t.body((k) => foreign[k]!),
      );
      const a = strip(none, [missing(t.kind)]);
      const b = strip(theirs, [foreign[t.kind]!]);
      if (JSON.stringify(a) !== JSON.stringify(b)) leaks.push({ route: `${ep.method} ${ep.path}`, id: t.label, nothing: a, other_organization: b });
    }
  }
  expect(leaks).toEqual([]);
  // Nothing of the other organization changed on the way.
  expect((await ok(boss.get(`/users/${foreign.user_id}`))).user.is_active).toBe(true);
  expect((await ok(boss.get(`/messages/${foreign.message_id}`))).message.content).toContain("rockets");
  expect((await ok(boss.get(`/streams/${foreign.stream_id}`))).stream.name).toBe("acme-only");
}, 60_000);
