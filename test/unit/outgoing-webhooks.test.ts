// Where outgoing webhook calls may go (domain/outgoing-webhooks.ts), and what the service is sent and
// how its answer is read: pure rules, table-driven.
import { describe, expect, test } from "bun:test";
import { ConfigError, loadConfig } from "../../src/config";
import { addressPolicy, refusal, replyFrom, requestFor } from "../../src/domain/outgoing-webhooks";

describe("address policy", () => {
  const own = { addresses: ["127.0.0.1", "::1", "192.168.1.10"], hosts: ["chat.example.com", "localhost"], port: 9991 };
  const open = addressPolicy({ allow: [], deny: [] }, own);
  const fenced = addressPolicy({ allow: ["169.254.10.0/24", "127.0.0.1"], deny: ["10.0.0.0/8", "nas.lan", "fd00::/8"] }, own);
  // [policy, host, port, resolved addresses, refused?]
  const cases: [string, typeof open, string, number, string[], string | null][] = [
    ["private addresses are allowed by default", open, "nas.lan", 8080, ["192.168.1.20"], null],
    ["another port on this machine is another service", open, "127.0.0.1", 8123, ["127.0.0.1"], null],
    ["this server itself is refused", open, "127.0.0.1", 9991, ["127.0.0.1"], "this server's own address"],
    ["…by its external name too", open, "chat.example.com", 9991, ["203.0.113.5"], "this server's own address"],
    ["…or another of its addresses", open, "box", 9991, ["192.168.1.10"], "this server's own address"],
    ["cloud metadata (link-local) is refused", open, "169.254.169.254", 80, ["169.254.169.254"], "a link-local address"],
    ["IPv6 link-local is refused", open, "fe80::1", 80, ["fe80::1"], "a link-local address"],
    ["an IPv4-mapped link-local address is refused", open, "x", 80, ["::ffff:169.254.169.254"], "a link-local address"],
    ["allow wins over the built-in refusals", fenced, "169.254.10.5", 80, ["169.254.10.5"], null],
    ["allow lets the server call itself", fenced, "127.0.0.1", 9991, ["127.0.0.1"], null],
    ["deny by CIDR", fenced, "build.lan", 80, ["10.1.2.3"], "denied by outgoing_webhooks.deny"],
    ["deny by host name", fenced, "NAS.lan", 80, ["192.168.1.20"], "denied by outgoing_webhooks.deny"],
    ["deny by IPv6 CIDR", fenced, "v6", 80, ["fd12::1"], "denied by outgoing_webhooks.deny"],
    ["public addresses are allowed", fenced, "hooks.example.org", 443, ["198.51.100.7"], null],
  ];
  for (const [name, policy, host, port, addresses, why] of cases) test(name, () => expect(refusal(policy, host, port, addresses)).toBe(why));

  test("a bad CIDR in the config is a config error naming the key", () => {
    expect(() => loadConfig({}, { CONFAB_OUTGOING_WEBHOOKS_DENY: '["10.0.0.0/33"]' })).toThrow(ConfigError);
    expect(() => loadConfig({}, { CONFAB_OUTGOING_WEBHOOKS_ALLOW: '["nas/8"]' })).toThrow(/outgoing_webhooks.allow/);
    expect(loadConfig({}, { CONFAB_OUTGOING_WEBHOOKS_ALLOW: '["10.0.0.0/8", "fd00::/8", "nas.lan", "10.1.1.1"]' }).outgoingWebhooks.allow).toHaveLength(4);
  });
});

describe("requests and answers", () => {
  const message = {
    id: 5,
    type: "stream",
    content: "@**Bot** hi",
    display_recipient: "dev",
    stream_id: 3,
    subject: "t",
    timestamp: 100,
    sender_id: 9,
    sender_email: "ann@example.com",
    sender_full_name: "Ann",
  };
  const base = { bot: { email: "bot@example.com", fullName: "Bot" }, serviceId: 7, trigger: "mention" as const, message, realmStringId: "" };

  test("generic: Zulip's JSON fields", () => {
    const r = requestFor({ ...base, service: { base_url: "http://x", token: "tok", interface: 1 } });
    expect("body" in r && r.contentType).toBe("application/json");
    expect(JSON.parse((r as { body: string }).body)).toEqual({
      bot_email: "bot@example.com",
      bot_full_name: "Bot",
      data: "@**Bot** hi",
      message,
      token: "tok",
      trigger: "mention",
    });
  });

  test("Slack-compatible: a form; direct messages are refused", () => {
    const r = requestFor({ ...base, service: { base_url: "http://x", token: "tok", interface: 2 } }) as { body: string; contentType: string };
    expect(Object.fromEntries(new URLSearchParams(r.body))).toMatchObject({
      token: "tok",
      text: "@**Bot** hi",
      channel_id: "3",
      channel_name: "dev",
      user_name: "Ann",
      team_domain: "example.com",
      trigger_word: "mention",
      service_id: "7",
    });
    expect(requestFor({ ...base, message: { ...message, type: "private" }, service: { base_url: "http://x", token: "tok", interface: 2 } })).toEqual({
      refused: "Slack outgoing webhooks don't support direct messages.",
    });
  });

  const answers: [number, string, ReturnType<typeof replyFrom>][] = [
    [1, '{"content": "hi"}', { content: "hi" }],
    [1, '{"response_string": "legacy"}', { content: "legacy" }],
    [1, '{"response_not_required": true, "content": "x"}', { content: null }],
    [1, "{}", { content: null }],
    [1, '{"content": "  "}', { content: null }],
    [1, "<html>", { invalid: true }],
    [1, '"just a string"', { invalid: true }],
    [2, '{"text": "slack"}', { content: "slack" }],
  ];
  for (const [iface, text, want] of answers) test(`answer ${text} (interface ${iface})`, () => expect(replyFrom(iface, text)).toEqual(want));
});
