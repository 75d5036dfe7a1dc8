// Slack's incoming-webhook format, which many tools emit (Uptime Kuma, Gatus, Watchtower, …): `text`,
// `blocks` and legacy `attachments`, as JSON or form-encoded in a `payload` field. Slack's mrkdwn
// (*bold*, _italic_, <url|text>) becomes Markdown. https://api.slack.com/messaging/webhooks
import { optList, optStr, post, type Integration } from "./types";

/** Slack's <url|text> links and *bold* / _italic_ emphasis, in Markdown. */
function mrkdwn(text: string): string {
  return text
    .replace(/<(\w+:\/\/[^|>]+)\|([^>]*)>/g, "[$2]($1)")
    .replace(/<(\w+:\/\/[^>]+)>/g, "$1")
    .replace(/(^|[^\w*])\*(?!\s)([^*\n]+?)(?<!\s)\*(?=[^\w*]|$)/g, "$1**$2**")
    .replace(/(^|[^\w])_(?!\s)([^_\n]+?)(?<!\s)_(?=[^\w]|$)/g, "$1*$2*");
}

const textOf = (t: any): string => (typeof t === "string" ? t : typeof t?.text === "string" ? t.text : "");
const image = (e: any) => (typeof e?.image_url === "string" ? `[${e.alt_text ?? "image"}](${e.image_url})` : "");

function block(b: any): string {
  switch (b?.type) {
    case "header":
      return "## " + textOf(b.text);
    case "divider":
      return "----";
    case "image":
      return image(b);
    case "context":
      return optList(b, "elements")
        .map((e: any) => (e.type === "image" ? image(e) : textOf(e)))
        .filter(Boolean)
        .join("\n\n");
    case "section": {
      const parts = [textOf(b.text), b.accessory?.type === "image" ? image(b.accessory) : ""];
      const fields = optList(b, "fields").map(textOf);
      if (fields.length) parts.push(fields.join("\n"));
      return parts.filter(Boolean).join("\n\n");
    }
    default:
      return ""; // actions, input: interactive, nothing to show
  }
}

function attachment(a: any): string {
  const parts: string[] = [];
  const title = optStr(a, "title");
  if (title) parts.push(`## ${optStr(a, "title_link") ? `[${title}](${a.title_link})` : title}`);
  for (const k of ["pretext", "text"]) if (optStr(a, k)) parts.push(a[k]);
  const fields = optList(a, "fields")
    .map((f: any) => (f.title && f.value ? `*${f.title}*: ${f.value}` : f.title ? `*${f.title}*` : String(f.value ?? "")))
    .filter(Boolean);
  if (fields.length) parts.push(fields.join("\n"));
  parts.push(...optList(a, "blocks").map(block));
  if (optStr(a, "image_url")) parts.push(`[](${a.image_url})`);
  if (optStr(a, "footer")) parts.push(a.footer);
  if (typeof a?.ts === "number") parts.push(`<time:${a.ts}>`);
  return parts
    .map((s) => s.trim())
    .filter(Boolean)
    .join("\n\n");
}

export const slackIncoming: Integration = {
  name: "slack_incoming",
  displayName: "Slack-compatible webhook",
  description: "anything that posts Slack incoming-webhook messages (Uptime Kuma, Gatus, Watchtower, Ansible, …)",
  eventTypes: null,
  handle({ payload: p }) {
    const channel = optStr(p, "channel");
    const topic = channel ? channel.replace(/^[@#]/, "") : "(no topic)";
    let body = [...optList(p, "blocks").map(block), ...optList(p, "attachments").map(attachment)]
      .map((s) => s.trim())
      .filter(Boolean)
      .join("\n\n");
    if (!body && optStr(p, "text")) body = `${optStr(p, "icon_emoji") ? p.icon_emoji + " " : ""}${p.text}`.trim();
    // An empty message is accepted and dropped, as Slack and Zulip do.
    return body ? post("message", { topic, content: mrkdwn(body) }) : post("message");
  },
};
