// What confab mails (domain/email.ts) and the check of the email.* settings (runtime/smtp.ts).
import { afterAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadConfig } from "../../src/config";
import { invitationMail, missedMessagesMail, narrowUrl, oneLine, unsubscribeKindOf } from "../../src/domain/email";
import { checkEmailConfig } from "../../src/runtime/smtp";
import { startSmtpSink } from "../helpers/smtp";

const dir = mkdtempSync(join(tmpdir(), "confab-email-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("mail composition", () => {
  test("oneLine: no control character survives into a header", () => {
    for (const [input, out] of [
      ["plain", "plain"],
      ["a\r\nBcc: evil@example.com", "a Bcc: evil@example.com"],
      ["a\nb\rc\td\u0000e\u2028f", "a b c d e f"],
      ["  spaced   out  ", "spaced out"],
    ])
      expect(oneLine(input!)).toBe(out!);
  });

  test("names with markup are escaped in HTML, kept in plain text", () => {
    const m = invitationMail({
      to: "x@example.com",
      org: "<b>Org</b>",
      inviter: "Ann & Co",
      inviterEmail: "ann@example.com",
      link: "https://chat.example.com/join/k/",
      expiresInDays: 1,
    });
    expect(m.html).toContain("&lt;b&gt;Org&lt;/b&gt;");
    expect(m.html).toContain("Ann &amp; Co");
    expect(m.text).toContain("Ann & Co (ann@example.com) invited you to join <b>Org</b>.");
    expect(m.text).toContain("The link works for 1 day.");
  });

  test("subjects and links per conversation, as Zulip's", () => {
    const base = {
      to: "u@example.com",
      org: "Acme",
      showContent: true,
      hiddenBy: null,
      link: "L",
      unsubscribe: { kind: "missed_messages" as const, link: "U" },
    };
    const msg = { id: 1, sender: "Ann", html: "<p>hi</p>", text: "hi", trigger: "direct_message" as const };
    const dm = (names: string[]) =>
      missedMessagesMail({ ...base, conversation: { type: "dm", others: names.map((name, id) => ({ id, name })) }, messages: [msg] }).subject;
    expect(dm(["Ann"])).toBe("DMs with Ann [Acme]");
    expect(dm(["Ann", "Bo"])).toBe("Group DMs with Ann and Bo [Acme]");
    expect(dm(["Ann", "Bo", "Cy"])).toBe("Group DMs with Ann, Bo, and Cy [Acme]");
    expect(dm(["Ann", "Bo", "Cy", "Di"])).toBe("Group DMs with Ann, Bo, and 2 others [Acme]");
    const channel = missedMessagesMail({
      ...base,
      conversation: { type: "channel", id: 3, name: "dev team", topic: "" },
      messages: [{ ...msg, trigger: "mentioned" }],
    });
    expect(channel.subject).toBe("#dev team > general chat [Acme]");
    expect(channel.text).toContain("Ann (mentioned you):\n> hi");
    expect(narrowUrl("https://c.example", { type: "channel", id: 3, name: "dev team", topic: "a b" }, 9)).toBe(
      "https://c.example/#narrow/channel/3-dev-team/topic/a.20b/near/9",
    );
    expect(
      narrowUrl(
        "https://c.example",
        {
          type: "dm",
          others: [
            { id: 4, name: "Ann Lee" },
            { id: 5, name: "Bo" },
          ],
        },
        9,
      ),
    ).toBe("https://c.example/#narrow/dm/4,5-group/near/9");
  });

  test("the unsubscribe kind follows the most personal trigger", () => {
    expect(unsubscribeKindOf(["channel", "mentioned"])).toBe("missed_messages");
    expect(unsubscribeKindOf(["channel", "followed_topic"])).toBe("followed_topics");
    expect(unsubscribeKindOf(["channel"])).toBe("channels");
  });
});

describe("checkEmailConfig", () => {
  const config = (env: Record<string, string>) => loadConfig({ dataDir: dir }, env);

  test("off: says so, and nothing is wrong", async () => {
    expect(await checkEmailConfig(config({}))).toEqual({
      ok: true,
      problems: [],
      summary: "email is not configured (email.enabled is off): nothing is mailed",
    });
  });

  test("names what is missing or unreadable", async () => {
    const r = await checkEmailConfig(config({ CONFAB_EMAIL_ENABLED: "true", CONFAB_EMAIL_PASSWORD_FILE: join(dir, "missing"), CONFAB_EMAIL_FROM: "nobody" }));
    expect(r.ok).toBe(false);
    expect(r.problems).toEqual([
      "email.host is empty",
      "email.from is not an address: nobody",
      `email.password_file: cannot read ${join(dir, "missing")}: ENOENT`,
      "email.password_file is set but email.username is empty",
    ]);
  });

  test("with connect: reaches the SMTP server, or reports why not", async () => {
    const smtp = await startSmtpSink();
    try {
      writeFileSync(join(dir, "pw"), "s3cret\n");
      const good = await checkEmailConfig(config({ ...smtp.env, CONFAB_EMAIL_USERNAME: "chat", CONFAB_EMAIL_PASSWORD_FILE: join(dir, "pw") }), {
        connect: true,
      });
      expect(good).toMatchObject({ ok: true, summary: `email: 127.0.0.1:${smtp.port} (none, as chat), from Confab <chat@example.com>` });
      expect(JSON.stringify(good)).not.toContain("s3cret");
      writeFileSync(join(dir, "pw"), "wrong\n");
      const refused = await checkEmailConfig(config({ ...smtp.env, CONFAB_EMAIL_USERNAME: "chat", CONFAB_EMAIL_PASSWORD_FILE: join(dir, "pw") }), {
        connect: true,
      });
      expect(refused.problems).toEqual([`SMTP server 127.0.0.1:${smtp.port}: Invalid login: 535 Invalid username or password`]);
      const tls = await checkEmailConfig(config({ ...smtp.env, CONFAB_EMAIL_SECURITY: "starttls" }), { connect: true });
      expect(tls.ok).toBe(false);
      expect(tls.problems[0]).toStartWith(`SMTP server 127.0.0.1:${smtp.port}: `);
    } finally {
      await smtp.stop();
    }
  });
});
