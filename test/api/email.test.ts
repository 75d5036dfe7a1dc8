// Email end to end: a real SMTP server in the test process receives what confab sends; tests read the
// mail, follow its links over HTTP and check what changed. Time passes through the app's clock
// (`app.now`), never by sleeping through a batching period.
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { expectError, ok, type Client } from "../helpers/client";
import { startServer, type TestServer } from "../helpers/server";
import { linkIn, rawHeader, startSmtpSink, type ReceivedMail, type SmtpSink } from "../helpers/smtp";
import { run } from "../cli/run";
import { rmSync } from "node:fs";
import { createApp } from "../../src/app";
import { loadConfig } from "../../src/config";
import { startEmailWorker } from "../../src/runtime/email";

// Argon2 hashing and real SMTP round trips take a while on a busy machine.
setDefaultTimeout(30_000);

const form = (url: string, fields: Record<string, string>, headers: Record<string, string> = {}) =>
  fetch(url, { method: "POST", headers: { "Content-Type": "application/x-www-form-urlencoded", ...headers }, body: new URLSearchParams(fields) });

const to = (address: string) => (m: ReceivedMail) => m.to.includes(address);

/** For one describe block: a fresh SMTP sink and a server mailing to it (`env` from the sink's), both stopped after. */
function withMailServer(set: (s: TestServer, smtp: SmtpSink) => void, env: (smtp: SmtpSink) => Record<string, string> = (smtp) => smtp.env) {
  let s: TestServer | undefined;
  let smtp: SmtpSink | undefined;
  beforeAll(async () => {
    smtp = await startSmtpSink();
    s = await startServer({ env: env(smtp) });
    set(s, smtp);
  });
  afterAll(async () => {
    await s?.stop();
    await smtp?.stop();
  });
}

describe("password reset", () => {
  let s: TestServer;
  let smtp: SmtpSink;
  const RESET = () => `${s.url}/accounts/password/reset/`;
  withMailServer((server, sink) => ((s = server), (smtp = sink)));

  test("from the mail: new password works, old refused, old API key and queues ended, link used once", async () => {
    const ann = await s.newUser({ email: "ann@example.com", password: "old-password" });
    const queue = await ok(ann.post("/register", { event_types: ["message"] }));
    const page = await fetch(RESET());
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('name="email"');

    const answer = await form(RESET(), { email: "ANN@example.com" });
    expect(answer.status).toBe(200);
    const answerText = await answer.text();
    const mail = await smtp.next(to("ann@example.com"));
    expect(mail.subject).toBe("Reset your password [Confab]");
    expect(mail.html).toContain("Choose a new password");
    const link = linkIn(mail, RESET());
    expect(link).toMatch(/\/accounts\/password\/reset\/[A-Za-z0-9_-]+\/[A-Za-z0-9]{40}\/$/);

    // The same answer for an address without an account, and no mail.
    const unknown = await form(RESET(), { email: "nobody@example.com" });
    expect(unknown.status).toBe(200);
    expect(await unknown.text()).toBe(answerText);
    expect(await smtp.settle(to("nobody@example.com"), 300)).toEqual([]);

    expect((await fetch(link)).status).toBe(200);
    const mismatch = await form(link, { new_password1: "new-password", new_password2: "other-password" });
    expect(mismatch.status).toBe(400);
    expect(await mismatch.text()).toContain("The two password fields didn&#39;t match.");
    const short = await form(link, { new_password1: "abc", new_password2: "abc" }, { Accept: "application/json" });
    expect(await short.json()).toMatchObject({ result: "error", msg: "The password is too short." });
    const done = await form(link, { new_password1: "new-password", new_password2: "new-password" });
    expect(done.status).toBe(200);
    expect(await done.text()).toContain("Password changed");

    await expectError(
      s.anon.post("/fetch_api_key", { username: "ann@example.com", password: "old-password" }),
      401,
      "AUTHENTICATION_FAILED",
      "Your username or password is incorrect",
    );
    const fresh = await ok(s.anon.post("/fetch_api_key", { username: "ann@example.com", password: "new-password" }));
    expect(fresh.api_key).not.toBe(ann.apiKey);
    await expectError(ann.get("/users/me"), 401, "INVALID_API_KEY", "Invalid API key");
    const renewed = s.client("ann@example.com", fresh.api_key, ann.userId!);
    await expectError(
      renewed.get("/events", { queue_id: queue.queue_id, last_event_id: -1, dont_block: true }),
      400,
      "BAD_EVENT_QUEUE_ID",
      `Bad event queue ID: ${queue.queue_id}`,
    );

    // Used: refused a second time.
    expect((await fetch(link)).status).toBe(404);
    const again = await form(link, { new_password1: "third-password", new_password2: "third-password" });
    expect(again.status).toBe(404);
    await ok(s.anon.post("/fetch_api_key", { username: "ann@example.com", password: "new-password" }));
  });

  test("a link expires; forged and mangled links are refused", async () => {
    await s.newUser({ email: "ben@example.com", password: "ben-password" });
    await form(RESET(), { email: "ben@example.com" });
    const link = linkIn(await smtp.next(to("ben@example.com")), RESET());
    const [uid, token] = link.split("/").slice(-3, -1) as [string, string];
    const forged = `${RESET()}${uid}/${"A".repeat(40)}/`;
    expect((await fetch(forged)).status).toBe(404);
    expect((await form(forged, { new_password1: "hijacked-1", new_password2: "hijacked-1" })).status).toBe(404);
    const otherUser = `${RESET()}${Buffer.from("1").toString("base64url")}/${token}/`;
    expect((await form(otherUser, { new_password1: "hijacked-1", new_password2: "hijacked-1" })).status).toBe(404);
    expect((await fetch(`${RESET()}${uid}/short/`)).status).toBe(404);

    s.clock.advance(25 * 3600);
    expect((await fetch(link)).status).toBe(404);
    const late = await form(link, { new_password1: "too-late-1", new_password2: "too-late-1" }, { Accept: "application/json" });
    expect(await late.json()).toMatchObject({ result: "error", msg: "The confirmation link has expired or been deactivated." });
    await ok(s.anon.post("/fetch_api_key", { username: "ben@example.com", password: "ben-password" }));
  });

  test("CR/LF in the address mails nobody", async () => {
    await s.newUser({ email: "cat@example.com", password: "cat-password" });
    const r = await form(RESET(), { email: "cat@example.com\r\nBcc: evil@example.com" });
    expect(r.status).toBe(200);
    expect(await smtp.settle((m) => m.to.includes("evil@example.com") || m.to.includes("cat@example.com"), 300)).toEqual([]);
  });
});

describe("password reset: rate limits", () => {
  let s: TestServer;
  let smtp: SmtpSink;
  withMailServer((server, sink) => ((s = server), (smtp = sink)));

  test("per address and per account a few mails an hour; a flood from one client is refused", async () => {
    await s.newUser({ email: "dan@example.com", password: "dan-password" });
    for (let i = 0; i < 8; i++)
      expect((await form(`${s.url}/accounts/password/reset/`, { email: i % 2 ? "dan@example.com" : "DAN@example.com" })).status).toBe(200);
    for (let i = 0; i < 5; i++) await smtp.next(to("dan@example.com"));
    expect(await smtp.settle(to("dan@example.com"), 500)).toEqual([]);
    let refused: Response | null = null;
    for (let i = 0; i < 70 && !refused; i++) {
      const r = await form(`${s.url}/accounts/password/reset/`, { email: `flood${i}@example.com` }, { Accept: "application/json" });
      if (r.status !== 200) refused = r;
    }
    expect(refused?.status).toBe(429);
    expect(await refused!.json()).toMatchObject({ result: "error", code: "RATE_LIMIT_HIT" });
    expect(refused!.headers.get("retry-after")).toMatch(/^\d+$/);
  });
});

describe("missed-message notifications", () => {
  let s: TestServer;
  let smtp: SmtpSink;
  let alice: Client;
  let bob: Client;
  let carol: Client;
  let channelId: number;
  withMailServer((server, sink) => ((s = server), (smtp = sink)));
  beforeAll(async () => {
    alice = await s.newUser({ name: "Alice Archer", email: "alice@example.com" });
    bob = await s.newUser({ name: "Bob Baker", email: "bob@example.com" });
    carol = await s.newUser({ name: "Carol Cook", email: "carol@example.com" });
    channelId = (await ok(alice.post("/channels/create", { name: "design", subscribers: [alice.userId, bob.userId, carol.userId] }))).id;
  });

  const dm = (from: Client, target: Client, content: string) => ok(from.post("/messages", { type: "direct", to: [target.userId], content }));
  const say = (from: Client, topic: string, content: string) => ok(from.post("/messages", { type: "stream", to: channelId, topic, content }));

  test("a DM to an inactive user is mailed once after the batching period, grouped, with a link", async () => {
    await dm(alice, bob, "Are you coming to the **review**?");
    await dm(alice, bob, "It starts at noon.");
    expect(await smtp.settle(to("bob@example.com"), 300)).toEqual([]); // the batching period (120 s) is not over
    s.clock.advance(121);
    const mail = await smtp.next(to("bob@example.com"));
    expect(mail.subject).toBe("DMs with Alice Archer [Confab]");
    expect(mail.text).toContain("> Are you coming to the **review**?");
    expect(mail.text).toContain("> It starts at noon.");
    expect(mail.html).toContain("<strong>review</strong>");
    expect(linkIn(mail, `${s.url}/#narrow/dm/`)).toMatch(new RegExp(`/#narrow/dm/${alice.userId}-Alice-Archer/near/\\d+$`));
    expect(rawHeader(mail, "List-Unsubscribe")).toContain("/accounts/unsubscribe/missed_messages/");
    s.clock.advance(600);
    expect(await smtp.settle(to("bob@example.com"), 300)).toEqual([]); // once
  });

  test("not mailed when read first, nor when the user was active since", async () => {
    const { id } = await dm(alice, carol, "read me in the app");
    await ok(carol.post("/messages/flags", { messages: [id], op: "add", flag: "read" }));
    await dm(alice, bob, "seen while active");
    await ok(bob.post("/users/me/presence", { status: "active", new_user_input: true, ping_only: true }));
    s.clock.advance(121);
    expect(await smtp.settle((m) => m.to.includes("carol@example.com") || m.to.includes("bob@example.com"), 400)).toEqual([]);
  });

  test("mentions: personal, group and wildcard (per the user's setting); plain channel messages are not mailed", async () => {
    s.clock.advance(10); // after Bob's last activity
    await say(alice, "plans", "nothing for anyone in particular");
    await say(alice, "plans", "@**Carol Cook** can you check the mockups?");
    s.clock.advance(121);
    const mention = await smtp.next(to("carol@example.com"));
    expect(mention.subject).toBe("#design > plans [Confab]");
    expect(mention.text).toContain("Alice Archer (mentioned you):");
    expect(mention.text).not.toContain("nothing for anyone");
    expect(linkIn(mention, `${s.url}/#narrow/channel/`)).toContain(`/#narrow/channel/${channelId}-design/topic/plans/near/`);
    expect(await smtp.settle(to("bob@example.com"), 200)).toEqual([]);

    const group = await ok(alice.post("/user_groups/create", { name: "reviewers", description: "", members: [carol.userId] }));
    await say(alice, "plans", "@*reviewers* please look");
    s.clock.advance(121);
    expect((await smtp.next(to("carol@example.com"))).text).toContain("Alice Archer (mentioned @reviewers):");
    expect(group.group_id).toBeGreaterThan(0);

    await ok(carol.patch("/settings", { wildcard_mentions_notify: false }));
    await say(alice, "plans", "@**all** meeting moved");
    s.clock.advance(121);
    expect((await smtp.next(to("bob@example.com"))).text).toContain("Alice Archer (mentioned everyone):");
    expect(await smtp.settle(to("carol@example.com"), 200)).toEqual([]);
  });

  test("followed topics and channels with email notifications on", async () => {
    await ok(bob.post("/user_topics", { stream_id: channelId, topic: "launch", visibility_policy: 3 }));
    await ok(carol.post("/users/me/subscriptions/properties", { subscription_data: [{ stream_id: channelId, property: "email_notifications", value: true }] }));
    await say(alice, "launch", "we ship on Friday");
    s.clock.advance(121);
    const followed = await smtp.next(to("bob@example.com"));
    expect(followed.text).toContain("we ship on Friday");
    expect(rawHeader(followed, "List-Unsubscribe")).toContain("/accounts/unsubscribe/followed_topics/");
    const channel = await smtp.next(to("carol@example.com"));
    expect(rawHeader(channel, "List-Unsubscribe")).toContain("/accounts/unsubscribe/channels/");
    await ok(bob.post("/user_topics", { stream_id: channelId, topic: "launch", visibility_policy: 0 }));

    // Carol unsubscribes from channel emails through the link: the channel's own setting goes off too.
    const unsubscribe = linkIn(channel, `${s.url}/accounts/unsubscribe/`);
    expect(await (await fetch(unsubscribe)).text()).toContain("Unsubscribe");
    expect((await form(unsubscribe, {})).status).toBe(200);
    const subs = await ok(carol.get("/users/me/subscriptions"));
    expect(subs.subscriptions.find((x: any) => x.stream_id === channelId).email_notifications).toBe(false);
    await say(alice, "launch", "another update");
    s.clock.advance(121);
    expect(await smtp.settle(to("carol@example.com"), 300)).toEqual([]);
  });

  test("content hidden where the organization or the user turns it off", async () => {
    await ok(bob.patch("/settings", { message_content_in_email_notifications: false }));
    await dm(alice, bob, "secret plans inside");
    s.clock.advance(121);
    const hidden = await smtp.next(to("bob@example.com"));
    expect(hidden.subject).toBe("New messages [Confab]");
    expect(hidden.text).not.toContain("secret plans");
    expect(hidden.html).not.toContain("secret plans");
    expect(hidden.text).toContain("because you turned it off");
    await ok(bob.patch("/settings", { message_content_in_email_notifications: true }));

    await ok(s.owner.patch("/realm", { message_content_allowed_in_email_notifications: false }));
    await dm(alice, bob, "more secret plans");
    s.clock.advance(121);
    const byRealm = await smtp.next(to("bob@example.com"));
    expect(byRealm.text).not.toContain("secret plans");
    expect(byRealm.text).toContain("because your organization turned it off");
    await ok(s.owner.patch("/realm", { message_content_allowed_in_email_notifications: true }));
  });

  test("the unsubscribe link turns direct-message and mention emails off; forged links are refused", async () => {
    await dm(alice, bob, "one more");
    s.clock.advance(121);
    const mail = await smtp.next(to("bob@example.com"));
    const link = linkIn(mail, `${s.url}/accounts/unsubscribe/missed_messages/`);
    expect((await fetch(link.replace(/\.[A-Za-z0-9_-]+\/$/, ".forged/"))).status).toBe(404);
    expect((await form(link.replace(/missed_messages\/\d+\./, `missed_messages/${carol.userId}.`), {})).status).toBe(404);
    const done = await form(link, {});
    expect(await done.text()).toContain("will no longer be emailed about direct messages and mentions");
    const state = await ok(bob.post("/register", { fetch_event_types: ["user_settings"] }));
    expect(state.user_settings.enable_offline_email_notifications).toBe(false);
    await dm(alice, bob, "you will not hear of this");
    s.clock.advance(121);
    expect(await smtp.settle(to("bob@example.com"), 300)).toEqual([]);
  });
});

describe("the outbox", () => {
  let s: TestServer;
  let smtp: SmtpSink;
  withMailServer(
    (server, sink) => ((s = server), (smtp = sink)),
    (sink) => ({ ...sink.env, CONFAB_EMAIL_MAX_ATTEMPTS: "3" }),
  );

  test("a message the server refused is retried after the backoff and arrives", async () => {
    smtp.refuseNext(1);
    await ok(s.owner.post("/invites", { invitee_emails: "retry@example.com", stream_ids: [] }));
    expect(await smtp.settle(to("retry@example.com"), 500)).toEqual([]);
    s.clock.advance(61); // email.retry_delay_seconds
    const mail = await smtp.next(to("retry@example.com"));
    expect(mail.subject).toContain("invited you to join Confab");
  });

  test("a message that keeps failing is given up, logged and listed by `confab email outbox`", async () => {
    smtp.refuseNext(3);
    await ok(s.owner.post("/invites", { invitee_emails: "doomed@example.com", stream_ids: [] }));
    for (const wait of [60, 120, 240]) {
      await Bun.sleep(300);
      s.clock.advance(wait + 1);
    }
    await Bun.sleep(500);
    expect(await smtp.settle(to("doomed@example.com"), 100)).toEqual([]);
    const r = await run(["email", "outbox", "--status", "failed", "--json", "--data-dir", s.dataDir], { env: s.env });
    expect(r.code).toBe(0);
    const rows = JSON.parse(r.stdout);
    expect(rows).toEqual([expect.objectContaining({ kind: "invitation", to: "doomed@example.com", status: "failed", attempts: 3 })]);
    expect(rows[0].lastError).toContain("451");
    expect(rows[0].text).toBeUndefined(); // bodies hold links: not listed
  });

  test("CR/LF in the organization's name and people's names never makes a header", async () => {
    await expectError(s.owner.patch("/settings", { full_name: "Eve\r\nBcc: evil@example.com" }), 400, "BAD_REQUEST", "Invalid characters in name!");
    const renamed = await s.owner.patch("/realm", { name: "Acme\r\nBcc: evil@example.com" });
    if (renamed.result === "success") {
      await ok(s.owner.post("/invites", { invitee_emails: "header@example.com", stream_ids: [] }));
      const mail = await smtp.next(to("header@example.com"));
      expect(mail.to).toEqual(["header@example.com"]);
      expect(mail.headers.has("bcc")).toBe(false);
      expect(mail.subject).not.toMatch(/[\r\n]/);
      expect(rawHeader(mail, "Bcc")).toBeNull();
      await ok(s.owner.patch("/realm", { name: "Confab" }));
    } else expect(renamed.result).toBe("error");
    expect(await smtp.settle(to("evil@example.com"), 200)).toEqual([]);
  });
});

describe("the outbox across a restart", () => {
  test("mail queued while the SMTP server is unreachable goes out after the server restarts", async () => {
    const smtp = await startSmtpSink();
    const closed = await startSmtpSink();
    await closed.stop(); // a port nobody listens on any more
    const s = await startServer({ env: { ...smtp.env, CONFAB_EMAIL_PORT: String(closed.port) } });
    await ok(s.owner.post("/invites", { invitee_emails: "later@example.com", stream_ids: [] }));
    await Bun.sleep(500); // the first attempt fails
    await s.stop({ keepData: true });
    const app = await createApp(loadConfig({ dataDir: s.dataDir, port: 0 }, { ...smtp.env, ...s.env, CONFAB_LOG_LEVEL: "error" }), {
      batching: true,
      now: () => Math.floor(Date.now() / 1000) + 61,
    }); // the retry is due
    const stop = startEmailWorker(app, 100);
    try {
      expect((await smtp.next(to("later@example.com"))).subject).toContain("invited you to join Confab");
    } finally {
      await stop();
      app.close();
      rmSync(s.dataDir, { recursive: true, force: true });
      await smtp.stop();
    }
  });
});

describe("email changes", () => {
  let s: TestServer;
  let smtp: SmtpSink;
  withMailServer((server, sink) => ((s = server), (smtp = sink)));

  test("PATCH /settings email is confirmed by a link mailed to the new address", async () => {
    const eve = await s.newUser({ email: "eve@example.com", name: "Eve" });
    await ok(eve.patch("/settings", { email: "eve.new@example.com" }));
    expect((await ok(eve.get("/users/me"))).email).toBe("eve@example.com"); // not yet
    const mail = await smtp.next(to("eve.new@example.com"));
    expect(mail.subject).toBe("Confirm your new email address [Confab]");
    const link = linkIn(mail, `${s.url}/accounts/confirm_new_email/`);
    expect(await (await fetch(link)).text()).toContain("eve.new@example.com");
    expect((await form(link, {})).status).toBe(200);
    const moved = s.client("eve.new@example.com", eve.apiKey!, eve.userId!);
    expect((await ok(moved.get("/users/me"))).email).toBe("eve.new@example.com");
    expect((await smtp.next(to("eve@example.com"))).text).toContain("was changed from eve@example.com to eve.new@example.com");
    expect((await form(link, {})).status).toBe(404); // used

    await ok(s.owner.patch("/realm", { email_changes_disabled: true }));
    await expectError(
      moved.patch("/settings", { email: "eve.third@example.com" }),
      400,
      "BAD_REQUEST",
      "Email address changes are disabled in this organization.",
    );
    await ok(s.owner.patch("/realm", { email_changes_disabled: false }));
  });
});

describe("email off (the default)", () => {
  let s: TestServer;
  let smtp: SmtpSink;
  // The sink's address is configured but email.enabled is not: nothing may reach it.
  withMailServer(
    (server, sink) => ((s = server), (smtp = sink)),
    ({ env: { CONFAB_EMAIL_ENABLED: _, ...env } }) => env,
  );

  test("everything that needs mail says plainly that email is not configured; nothing is mailed", async () => {
    const msg = "Email is not configured on this server (email.enabled is off), so nothing can be sent by email.";
    await expectError(s.owner.post("/invites", { invitee_emails: "x@example.com", stream_ids: [] }), 400, "BAD_REQUEST", msg);
    expect((await ok(s.owner.get("/invites"))).invites).toEqual([]);
    const reset = await fetch(`${s.url}/accounts/password/reset/`);
    expect(reset.status).toBe(503);
    expect(await reset.text()).toContain("not configured");
    const posted = await form(`${s.url}/accounts/password/reset/`, { email: s.owner.email! }, { Accept: "application/json" });
    expect(await posted.json()).toMatchObject({ result: "error", msg });
    const ann = await s.newUser({ email: "off@example.com" });
    await ok(s.owner.post("/messages", { type: "direct", to: [ann.userId], content: "hello" }));
    expect(await s.clock.during(3600, () => smtp.settle(() => true, 500))).toEqual([]);
    const cli = await run(["email", "test", "someone@example.com", "--data-dir", s.dataDir], { env: s.env });
    expect(cli.code).toBe(1);
    expect(cli.stderr).toContain("email is not configured");
  });
});

describe("confab email test", () => {
  test("sends a test message and prints the SMTP server's answer; a refusal is reported", async () => {
    const smtp = await startSmtpSink();
    try {
      const ok_ = await run(["email", "test", "ops@example.com"], { env: { ...smtp.env, CONFAB_DATA_DIR: "/tmp/confab-email-test-unused" } });
      expect(ok_.stderr).toBe("");
      expect(ok_.stdout).toMatch(/^sent to ops@example.com through 127\.0\.0\.1:\d+: 250 /);
      expect((await smtp.next(to("ops@example.com"))).subject).toBe("confab test message");
      smtp.refuseNext(1);
      const refused = await run(["email", "test", "ops@example.com"], { env: smtp.env });
      expect(refused.code).toBe(1);
      expect(refused.stderr).toContain("refused the message");
      expect(refused.stderr).toContain("451");
    } finally {
      await smtp.stop();
    }
  });
});
