import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { expectError, ok, type Client } from "../helpers/client";
import { startServer, type TestServer } from "../helpers/server";
import { linkIn, startSmtpSink, type SmtpSink } from "../helpers/smtp";

let s: TestServer;
let smtp: SmtpSink;
let admin: Client;
let member: Client;
let guest: Client;
let openId: number;
let privateId: number;
let defaultId: number;
let groupId: number;

const channel = async (name: string, extra: Record<string, unknown> = {}) => {
  const r = await ok(s.owner.post("/channels/create", { name, subscribers: [s.owner.userId], ...extra }));
  return r.id as number;
};

beforeAll(async () => {
  smtp = await startSmtpSink();
  s = await startServer({ env: smtp.env });
  admin = await s.newUser({ role: 200, name: "Ada Admin" });
  member = await s.newUser({ name: "Mia Member" });
  guest = await s.newUser({ role: 600, name: "Gus Guest" });
  openId = await channel("lobby");
  privateId = await channel("secret-room", { invite_only: true });
  defaultId = await channel("announcements", { is_default_stream: true });
  groupId = (await ok(s.owner.post("/user_groups/create", { name: "newcomers", description: "", members: [] }))).group_id;
});
afterAll(async () => {
  await s.stop();
  await smtp.stop();
});

/** Opens an invitation link like a browser would, then posts the form as a JSON client. */
async function join_(link: string, form: Record<string, string>) {
  const page = await fetch(link);
  const html = await page.text();
  const res = await fetch(link, {
    method: "POST",
    headers: { Accept: "application/json", "Content-Type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams(form),
  });
  return { page, html, res, body: (await res.json()) as Record<string, any> };
}

describe("POST /invites/multiuse", () => {
  test("who may: administrators by default; members once create_multiuse_invite_group allows; never guests", async () => {
    await expectError(member.post("/invites/multiuse", {}), 400, "BAD_REQUEST", "Insufficient permission");
    await expectError(guest.post("/invites/multiuse", {}), 400, "BAD_REQUEST", "Not allowed for guest users");
    const { user_groups } = await ok(s.owner.get("/user_groups"));
    const members = user_groups.find((g: any) => g.name === "role:members").id;
    await ok(s.owner.patch("/realm", { create_multiuse_invite_group: { new: members } }));
    const { invite_link } = await ok(member.post("/invites/multiuse", {}));
    expect(invite_link).toStartWith(`${s.url}/join/`);
  });

  test("invite_as no higher than the caller's role; welcome text for administrators only, at most 8000 code points", async () => {
    await expectError(member.post("/invites/multiuse", { invite_as: 300 }), 400, "BAD_REQUEST", "Must be an organization administrator");
    await expectError(admin.post("/invites/multiuse", { invite_as: 100 }), 400, "UNAUTHORIZED_PRINCIPAL", "Must be an organization owner");
    await ok(admin.post("/invites/multiuse", { invite_as: 200 }));
    await ok(s.owner.post("/invites/multiuse", { invite_as: 100 }));
    await expectError(member.post("/invites/multiuse", { welcome_message_custom_text: "Hi" }), 400, "BAD_REQUEST", "Must be an organization administrator");
    await expectError(
      admin.post("/invites/multiuse", { welcome_message_custom_text: "é".repeat(8001) }),
      400,
      "BAD_REQUEST",
      "welcome_message_custom_text is too long (limit: 8000 characters)",
    );
    await ok(admin.post("/invites/multiuse", { welcome_message_custom_text: "😀".repeat(8000) }));
  });

  test("stream_ids: accessible channels only; without subscribe permission only default channels; exact errors", async () => {
    await expectError(member.post("/invites/multiuse", { stream_ids: [999999] }), 400, "BAD_REQUEST", "Invalid channel ID 999999. No invites were sent.");
    await expectError(
      member.post("/invites/multiuse", { stream_ids: [privateId] }),
      400,
      "BAD_REQUEST",
      `Invalid channel ID ${privateId}. No invites were sent.`,
    );
    const { user_groups } = await ok(s.owner.get("/user_groups"));
    const admins = user_groups.find((g: any) => g.name === "role:administrators").id;
    await ok(s.owner.patch("/realm", { can_add_subscribers_group: { new: admins } }));
    await expectError(
      member.post("/invites/multiuse", { stream_ids: [openId] }),
      400,
      "BAD_REQUEST",
      "You do not have permission to subscribe other users to channels.",
    );
    await ok(member.post("/invites/multiuse", { stream_ids: [defaultId], include_realm_default_subscriptions: true }));
    await ok(s.owner.post("/invites/multiuse", { stream_ids: [openId, privateId] }));
    // Administrators too need the private channel's content (a subscription) to invite to it.
    await expectError(
      admin.post("/invites/multiuse", { stream_ids: [privateId] }),
      400,
      "BAD_REQUEST",
      `Invalid channel ID ${privateId}. No invites were sent.`,
    );
    await expectError(member.post("/invites/multiuse", { group_ids: [groupId] }), 400, "BAD_REQUEST", "Insufficient permission");
  });

  test("expiry: minutes, the 14400 default, null for never; listed by GET /invites and revocable", async () => {
    const before = Math.floor(Date.now() / 1000);
    await ok(admin.post("/invites/multiuse", {}));
    await ok(admin.post("/invites/multiuse", { invite_expires_in_minutes: 60 }));
    await ok(admin.post("/invites/multiuse", { invite_expires_in_minutes: null }));
    const mine = (await ok(admin.get("/invites"))).invites.filter((i: any) => i.invited_by_user_id === admin.userId).slice(-3);
    expect(mine.every((i: any) => i.is_multiuse && i.link_url.startsWith(`${s.url}/join/`))).toBe(true);
    expect(mine[0].expiry_date - before).toBeGreaterThanOrEqual(14400 * 60 - 5);
    expect(mine[0].expiry_date - before).toBeLessThanOrEqual(14400 * 60 + 5);
    expect(mine[1].expiry_date - before).toBeLessThanOrEqual(3600 + 5);
    expect(mine[2].expiry_date).toBeNull();
    await expectError(member.delete(`/invites/multiuse/${mine[2].id}`), 400, "BAD_REQUEST", "Must be an organization administrator");
    await ok(admin.delete(`/invites/multiuse/${mine[2].id}`));
    await expectError(admin.delete(`/invites/multiuse/${mine[2].id}`), 400, "BAD_REQUEST", "Invitation has already been revoked");
    await expectError(admin.delete("/invites/multiuse/999999"), 400, "BAD_REQUEST", "No such invitation");
    // A member sees only their own invitations.
    expect((await ok(member.get("/invites"))).invites.every((i: any) => i.invited_by_user_id === member.userId)).toBe(true);
  });
});

describe("the welcome bot", () => {
  test("greets who joins by invitation, with the invitation's text, the organization's, or none", async () => {
    const welcomeOf = async (email: string, invite: Record<string, unknown>) => {
      const { invite_link } = await ok(s.owner.post("/invites/multiuse", invite));
      const r = await join_(invite_link, { email, full_name: "New Person", password: "hunter2hunter2" });
      const c = s.client(email, r.body.api_key, r.body.user_id);
      const { messages } = await ok(c.get("/messages", { anchor: "newest", num_before: 10, num_after: 0, narrow: [["is", "dm"]], apply_markdown: false }));
      expect(messages).toHaveLength(1);
      expect(messages[0].sender_full_name).toBe("Welcome Bot");
      return messages[0].content as string;
    };
    await ok(s.owner.patch("/realm", { welcome_message_custom_text: "Read #**lobby** first." }));
    expect(await welcomeOf("w1@example.com", { welcome_message_custom_text: "Ask Ann for a laptop." })).toContain("Ask Ann for a laptop.");
    const orgDefault = await welcomeOf("w2@example.com", {});
    expect(orgDefault).toContain("Read #**lobby** first.");
    const none = await welcomeOf("w3@example.com", { welcome_message_custom_text: "" });
    expect(none).toStartWith("Hello, and welcome to");
    expect(none).not.toContain("message from your organization");
  });
});

describe("the invitation link", () => {
  test("opening it shows a form; posting it creates the account with the role, channels and groups named", async () => {
    const { invite_link } = await ok(
      s.owner.post("/invites/multiuse", { invite_as: 300, stream_ids: [openId, privateId], group_ids: [groupId], include_realm_default_subscriptions: true }),
    );
    const r = await join_(invite_link, { email: "joiner@example.com", full_name: "Jo Iner", password: "hunter2hunter2" });
    expect(r.page.status).toBe(200);
    expect(r.html).toContain("<form");
    expect(r.body).toMatchObject({ result: "success", email: "joiner@example.com" });
    const jo = s.client("joiner@example.com", r.body.api_key, r.body.user_id);
    expect((await ok(jo.get("/users/me"))).role).toBe(300);
    const subs = (await ok(jo.get("/users/me/subscriptions"))).subscriptions.map((x: any) => x.stream_id).sort();
    expect(subs).toEqual([openId, privateId, defaultId].sort());
    expect((await ok(jo.get(`/user_groups/${groupId}/members/${jo.userId}`))).is_user_group_member).toBe(true);
    // A reusable link stays open; an address already in use is refused.
    const again = await join_(invite_link, { email: "joiner@example.com", full_name: "Jo Again", password: "hunter2hunter2" });
    expect(again.res.status).toBe(400);
    expect(again.body.msg).toBe("Email 'joiner@example.com' already in use");
    // The browser form answers with the page and the error.
    const html = await fetch(invite_link, { method: "POST", body: new URLSearchParams({ email: "x@example.com", full_name: "X", password: "1" }) });
    expect(await html.text()).toContain("The password is too short.");
  });

  test("a revoked or unknown link is refused", async () => {
    const { invite_link } = await ok(admin.post("/invites/multiuse", {}));
    const id = (await ok(admin.get("/invites"))).invites.find((i: any) => i.link_url === invite_link).id;
    await ok(admin.delete(`/invites/multiuse/${id}`));
    const r = await join_(invite_link, { email: "late@example.com", full_name: "Late", password: "hunter2hunter2" });
    expect(r.page.status).toBe(404);
    expect(r.body.msg).toBe("The confirmation link has expired or been deactivated.");
    expect((await fetch(`${s.url}/join/nonsense/`)).status).toBe(404);
  });
});

describe("email invitations", () => {
  test("stored, mailed to the outbox, listed, resent, revoked; an email invitation is used once", async () => {
    await expectError(member.post("/invites", { invitee_emails: "", stream_ids: [] }), 400, "BAD_REQUEST", "You must specify at least one email address.");
    const bad = await expectError(
      member.post("/invites", { invitee_emails: "nope", stream_ids: [] }, { unchecked: true }),
      400,
      "INVITATION_FAILED",
      "Some emails did not validate, so we didn't send any invitations.",
    );
    expect(bad.errors).toEqual([["nope", "Invalid address.", false]]);
    const partly = await expectError(
      member.post("/invites", { invitee_emails: `Friend <friend@example.com>, ${admin.email}`, stream_ids: [defaultId] }),
      400,
      "INVITATION_FAILED",
      "Some of those addresses are already using Zulip, so we didn't send them an invitation. We did send invitations to everyone else!",
    );
    expect(partly).toMatchObject({ sent_invitations: true, errors: [[admin.email, "Already has an account.", false]] });
    const invite = (await ok(member.get("/invites"))).invites.find((i: any) => i.email === "friend@example.com");
    expect(invite).toMatchObject({ is_multiuse: false, invited_as: 400, invited_by_user_id: member.userId });
    const mail = await smtp.next((m) => m.to.includes("friend@example.com"));
    expect(mail.subject).toBe("Mia Member invited you to join Confab");
    expect(mail.html).toContain("Create your account");
    const link = linkIn(mail, `${s.url}/join/`);
    await ok(member.post(`/invites/${invite.id}/resend`));
    expect(linkIn(await smtp.next((m) => m.to.includes("friend@example.com")), `${s.url}/join/`)).toBe(link);
    await expectError(member.post("/invites/999999/resend"), 400, "BAD_REQUEST", "No such invitation");
    const r = await join_(link, { full_name: "Friend", password: "hunter2hunter2" });
    expect(r.body).toMatchObject({ result: "success", email: "friend@example.com" });
    expect((await join_(link, { full_name: "Friend", password: "hunter2hunter2" })).page.status).toBe(404);
    expect((await ok(member.get("/invites"))).invites.some((i: any) => i.id === invite.id)).toBe(false);
    await ok(member.post("/invites", { invitee_emails: "other@example.com", stream_ids: [] }));
    const otherLink = linkIn(await smtp.next((m) => m.to.includes("other@example.com")), `${s.url}/join/`);
    expect((await fetch(otherLink)).status).toBe(200);
    const other = (await ok(member.get("/invites"))).invites.find((i: any) => i.email === "other@example.com");
    await expectError(guest.delete(`/invites/${other.id}`), 400, "BAD_REQUEST", "Not allowed for guest users");
    await ok(admin.delete(`/invites/${other.id}`));
    await expectError(admin.delete(`/invites/${other.id}`), 400, "BAD_REQUEST", "No such invitation");
    // Revoked: the mailed link is dead.
    expect((await fetch(otherLink)).status).toBe(404);
    expect((await join_(otherLink, { full_name: "Other", password: "hunter2hunter2" })).body.msg).toBe(
      "The confirmation link has expired or been deactivated.",
    );
  });
});
