// Outgoing webhooks, the pure parts: what the service is sent (Zulip's generic JSON and Slack-compatible
// form), how its answer is read, where calls may go, and what people are told when a call fails.
import type { BotService } from "./bots";
import { type AddressRange, inRange, ipVersion, parseRange } from "../lib/addresses";

export const INTERFACE = { generic: 1, slack: 2 } as const;
export type Trigger = "mention" | "direct_message";

export interface CallContext {
  bot: { email: string; fullName: string };
  service: BotService;
  /** Zulip's service id (Slack interface); confab has one service per bot, numbered as the bot. */
  serviceId: number;
  trigger: Trigger;
  /** Zulip's message object: content (Markdown), rendered_content, display_recipient, subject, … */
  message: Record<string, any>;
  realmStringId: string;
}

/** The request body and its content type, or a reason the interface cannot carry this message. */
export function requestFor(c: CallContext): { body: string; contentType: string } | { refused: string } {
  const m = c.message;
  if (c.service.interface === INTERFACE.slack) {
    if (m.type !== "stream") return { refused: "Slack outgoing webhooks don't support direct messages." };
    const form = new URLSearchParams({
      token: c.service.token,
      team_id: c.realmStringId,
      team_domain: String(m.sender_email ?? "").split("@")[1] ?? "",
      channel_id: String(m.stream_id),
      channel_name: String(m.display_recipient),
      thread_ts: String(m.timestamp),
      timestamp: String(m.timestamp),
      user_id: String(m.sender_id),
      user_name: String(m.sender_full_name),
      text: String(m.content),
      trigger_word: c.trigger,
      service_id: String(c.serviceId),
    });
    return { body: form.toString(), contentType: "application/x-www-form-urlencoded" };
  }
  const body = { bot_email: c.bot.email, bot_full_name: c.bot.fullName, data: m.content, message: m, token: c.service.token, trigger: c.trigger };
  return { body: JSON.stringify(body), contentType: "application/json" };
}

/** A 2xx answer: the reply to post (none when the service says so or gives nothing), or invalid JSON. */
export function replyFrom(iface: number, text: string): { content: string | null } | { invalid: true } {
  let json: any;
  try {
    json = JSON.parse(text);
  } catch {
    return { invalid: true };
  }
  if (json === null || typeof json !== "object") return { invalid: true };
  if (json.response_not_required === true) return { content: null };
  const raw = iface === INTERFACE.slack ? json.text : (json.content ?? json.response_string);
  const content = raw === undefined || raw === null ? "" : String(raw);
  return { content: content.trim() ? content : null };
}

// ---- Where calls may go ----

export interface AddressPolicy {
  allow: AddressRange[];
  allowHosts: Set<string>;
  deny: AddressRange[];
  denyHosts: Set<string>;
  /** Link-local ranges (cloud metadata services live there). */
  linkLocal: AddressRange[];
  /** This server: its addresses and the port it listens on. */
  own: { addresses: AddressRange[]; hosts: Set<string>; port: number };
}

/** Ranges from texts that are addresses or CIDRs; the rest is left out. */
const rangesOf = (list: readonly string[]) => list.map((t) => parseRange(t)).filter((r): r is AddressRange => r !== null);
const anyIn = (addresses: string[], ranges: AddressRange[]) => addresses.some((a) => ranges.some((r) => inRange(a, r)));

/** Parses config entries: CIDRs ("10.0.0.0/8"), addresses, or host names. */
function entries(list: readonly string[]): { ranges: AddressRange[]; hosts: Set<string> } {
  const ranges: AddressRange[] = [];
  const hosts = new Set<string>();
  for (const raw of list) {
    const e = raw.trim().toLowerCase();
    const range = parseRange(e); // a CIDR with a bad prefix never gets here: invalidPolicyEntry refuses it at start
    if (range) ranges.push(range);
    else if (e) hosts.add(e);
  }
  return { ranges, hosts };
}

/** Checks config entries once, at startup: a CIDR with a bad prefix is a config mistake. */
export function invalidPolicyEntry(list: readonly string[]): string | null {
  for (const raw of list) {
    const [addr, bits] = raw.trim().split("/");
    if (bits === undefined) continue;
    const max = ipVersion(addr!) === 6 ? 128 : ipVersion(addr!) === 4 ? 32 : -1;
    if (max < 0 || !/^\d+$/.test(bits) || Number(bits) > max) return raw;
  }
  return null;
}

export function addressPolicy(
  cfg: { allow: readonly string[]; deny: readonly string[] },
  own: { addresses: string[]; hosts: string[]; port: number },
): AddressPolicy {
  const allow = entries(cfg.allow);
  const deny = entries(cfg.deny);
  return {
    allow: allow.ranges,
    allowHosts: allow.hosts,
    deny: deny.ranges,
    denyHosts: deny.hosts,
    linkLocal: rangesOf(["169.254.0.0/16", "fe80::/10", "fd00:ec2::254" /* AWS's IPv6 metadata address */]),
    own: { addresses: rangesOf(own.addresses), hosts: new Set(own.hosts.map((h) => h.toLowerCase())), port: own.port },
  };
}

/** Why a call to host:port (resolved to `addresses`) is refused, or null when it may go. */
export function refusal(p: AddressPolicy, host: string, port: number, addresses: string[]): string | null {
  const h = host.toLowerCase().replace(/^\[|\]$/g, "");
  if (p.allowHosts.has(h) || anyIn(addresses, p.allow)) return null;
  if (p.denyHosts.has(h) || anyIn(addresses, p.deny)) return "denied by outgoing_webhooks.deny";
  if (anyIn(addresses, p.linkLocal)) return "a link-local address";
  if (port === p.own.port && (p.own.hosts.has(h) || anyIn(addresses, p.own.addresses))) return "this server's own address";
  return null;
}

// ---- What people are told ----

/** Zulip prefixes a reply about a failed call with "Failure! ". */
export const failureReply = (why: string) => `Failure! ${why}`;

/** The direct message to the bot's owner when a call failed for good. */
export function ownerNotice(o: { botName: string; messageUrl: string; failure?: string; status?: number; response?: string; error?: string }): string {
  const lines = [`[A message](${o.messageUrl}) to your bot @_**${o.botName}** triggered an outgoing webhook, and the call failed.`];
  if (o.failure) lines.push(o.failure);
  if (o.status) lines.push(`The service answered with status code *${o.status}*.`);
  if (o.response) lines.push(`Its answer began with:\n\`\`\`\n${o.response.slice(0, 500).replace(/```/g, "'''")}\n\`\`\``);
  if (o.error) lines.push(`The request failed with:\n\`\`\`\n${o.error.slice(0, 500)}\n\`\`\``);
  return lines.join("\n");
}
