// What confab mails, as pure functions: each returns the subject, plain text and HTML of one message.
// Names, topics and organization names come from users; they reach headers only through `oneLine`, so
// no CR/LF can start a header of its own, and HTML only through `esc`.
import { escapeAttr } from "../render/html";
import { channelSlug, encodeHashComponent } from "../render/urls";

export interface Mail {
  to: string;
  subject: string;
  text: string;
  html: string;
  headers?: Record<string, string>;
}

/** Mail kinds, as the outbox records them. */
export type MailKind = "invitation" | "password_reset" | "email_change" | "email_changed" | "missed_messages" | "test";

/** One line for a header: control characters (CR, LF, tab ...) become spaces. */
export const oneLine = (s: string) =>
  s
    .replace(/[\u0000-\u001f\u007f\u2028\u2029]+/g, " ")
    .replace(/\s+/g, " ")
    .trim();

const esc = escapeAttr;

/** The organization's name in every subject, as Zulip's "[Organization]" suffix. */
const subject = (text: string, org: string) => oneLine(`${text} [${org}]`);

function layout(paragraphs: string[], footer?: string): string {
  const body = paragraphs.map((p) => (p.startsWith("<") ? p : `<p>${p}</p>`)).join("\n");
  return `<!doctype html><html><body style="font:15px/1.5 system-ui,sans-serif;color:#222;max-width:40rem">
${body}${footer ? `\n<p style="color:#777;font-size:13px">${footer}</p>` : ""}
</body></html>`;
}

const button = (href: string, label: string) =>
  `<p><a href="${esc(href)}" style="display:inline-block;padding:.5rem 1rem;background:#3b6ea5;color:#fff;text-decoration:none;border-radius:4px">${esc(label)}</a></p>`;

export function invitationMail(o: { to: string; org: string; inviter: string; inviterEmail: string; link: string; expiresInDays: number | null }): Mail {
  const expiry = o.expiresInDays === null ? "" : ` The link works for ${o.expiresInDays} day${o.expiresInDays === 1 ? "" : "s"}.`;
  return {
    to: o.to,
    subject: oneLine(`${o.inviter} invited you to join ${o.org}`),
    text: `${o.inviter} (${o.inviterEmail}) invited you to join ${o.org}.\n\nCreate your account: ${o.link}\n${expiry ? `\n${expiry.trim()}\n` : ""}`,
    html: layout([
      `${esc(o.inviter)} (${esc(o.inviterEmail)}) invited you to join <strong>${esc(o.org)}</strong>.`,
      button(o.link, "Create your account"),
      `Or open ${esc(o.link)}.${esc(expiry)}`,
    ]),
  };
}

export function passwordResetMail(o: { to: string; org: string; link: string; hours: number }): Mail {
  const why = `Someone (hopefully you) asked to reset the password of the account ${o.to} in ${o.org}.`;
  const ignore = `The link works once, for ${o.hours} hours. If you did not ask for this, ignore this email: your password stays as it is.`;
  return {
    to: o.to,
    subject: subject("Reset your password", o.org),
    text: `${why}\n\nChoose a new password: ${o.link}\n\n${ignore}\n`,
    html: layout([esc(why), button(o.link, "Choose a new password"), `Or open ${esc(o.link)}.`, esc(ignore)]),
  };
}

export function emailChangeMail(o: { to: string; org: string; oldEmail: string; link: string; hours: number }): Mail {
  const why = `Someone (hopefully you) asked to change the email address of the account ${o.oldEmail} in ${o.org} to ${o.to}.`;
  const ignore = `The link works once, for ${o.hours} hours. If you did not ask for this, ignore this email.`;
  return {
    to: o.to,
    subject: subject("Confirm your new email address", o.org),
    text: `${why}\n\nConfirm the change: ${o.link}\n\n${ignore}\n`,
    html: layout([esc(why), button(o.link, "Confirm the new address"), `Or open ${esc(o.link)}.`, esc(ignore)]),
  };
}

/** Sent to the old address once a change is confirmed, as Zulip does. */
export function emailChangedMail(o: { to: string; org: string; newEmail: string }): Mail {
  const what = `The email address of your account in ${o.org} was changed from ${o.to} to ${o.newEmail}. If you did not do this, contact your organization's administrators.`;
  return { to: o.to, subject: subject("Your email address was changed", o.org), text: `${what}\n`, html: layout([esc(what)]) };
}

export function testMail(to: string, serverUrl: string): Mail {
  const what = `This is a test message from the confab server at ${serverUrl}. Email works.`;
  return { to, subject: oneLine("confab test message"), text: `${what}\n`, html: layout([esc(what)]) };
}

// ---- Missed messages ----

/** Why a user is told of a message, most personal first (one per message and user). */
export const TRIGGERS = ["direct_message", "mentioned", "wildcard_mentioned", "followed_topic", "channel"] as const;
export type Trigger = (typeof TRIGGERS)[number];

/**
 * What an unsubscribe link turns off: each kind is one of the user's settings, and a mail's kind follows
 * its most personal trigger.
 */
export const UNSUBSCRIBE_KINDS = {
  missed_messages: { setting: "enable_offline_email_notifications", what: "direct messages and mentions" },
  followed_topics: { setting: "enable_followed_topic_email_notifications", what: "messages in topics you follow" },
  channels: { setting: "enable_stream_email_notifications", what: "messages in channels you asked to be emailed about" },
} as const;
export type UnsubscribeKind = keyof typeof UNSUBSCRIBE_KINDS;

export const unsubscribeKindOf = (triggers: Trigger[]): UnsubscribeKind =>
  triggers.some((t) => t === "direct_message" || t === "mentioned" || t === "wildcard_mentioned")
    ? "missed_messages"
    : triggers.includes("followed_topic")
      ? "followed_topics"
      : "channels";

export type Conversation = { type: "dm"; others: { id: number; name: string }[] } | { type: "channel"; id: number; name: string; topic: string };

/** The web client's link to a conversation (Zulip's narrow URLs). */
export function narrowUrl(realmUrl: string, c: Conversation, nearId: number): string {
  if (c.type === "channel") return `${realmUrl}/#narrow/channel/${channelSlug(c.id, c.name)}/topic/${encodeHashComponent(c.topic)}/near/${nearId}`;
  const ids = c.others.map((u) => u.id).join(",");
  const slug = c.others.length === 1 ? `${ids}-${encodeHashComponent(c.others[0]!.name.replace(/ /g, "-"))}` : `${ids}-group`;
  return `${realmUrl}/#narrow/dm/${slug}/near/${nearId}`;
}

const names = (list: string[]) =>
  list.length <= 2
    ? list.join(" and ")
    : list.length === 3
      ? `${list[0]}, ${list[1]}, and ${list[2]}`
      : `${list[0]}, ${list[1]}, and ${list.length - 2} others`;

export interface MissedMessage {
  id: number;
  sender: string;
  /** Rendered HTML (links already absolute) and the Markdown source. */
  html: string;
  text: string;
  trigger: Trigger;
  /** The mentioned group's name, for group mentions. */
  group?: string;
}

/**
 * One conversation's missed messages (Zulip's missed_message email): who wrote, why the user is told,
 * the messages themselves when `showContent`, a link to the conversation and one to unsubscribe.
 */
export function missedMessagesMail(o: {
  to: string;
  org: string;
  conversation: Conversation;
  messages: MissedMessage[];
  showContent: boolean;
  hiddenBy: "user" | "organization" | null;
  link: string;
  unsubscribe: { kind: UnsubscribeKind; link: string };
}): Mail {
  const c = o.conversation;
  const title =
    c.type === "dm"
      ? c.others.length === 1
        ? `DMs with ${c.others[0]!.name}`
        : `Group DMs with ${names(c.others.map((u) => u.name))}`
      : `#${c.name} > ${c.topic || "general chat"}`;
  const why = (m: MissedMessage) =>
    m.trigger === "mentioned" ? (m.group ? `mentioned @${m.group}` : "mentioned you") : m.trigger === "wildcard_mentioned" ? "mentioned everyone" : "";
  const count = o.messages.length;
  const unsubscribeLine = `You get these emails for ${UNSUBSCRIBE_KINDS[o.unsubscribe.kind].what} while you are away. Turn them off: ${o.unsubscribe.link}`;
  if (!o.showContent) {
    const hidden = `This email does not include message content because ${o.hiddenBy === "organization" ? "your organization" : "you"} turned it off.`;
    const what = `You have ${count} new message${count === 1 ? "" : "s"} in ${o.org}.`;
    return {
      to: o.to,
      subject: subject("New messages", o.org),
      text: `${what}\n\nOpen the conversation: ${o.link}\n\n${hidden}\n\n${unsubscribeLine}\n`,
      html: layout([esc(what), button(o.link, "Open the conversation"), esc(hidden)], unsubscribeHtml(o.unsubscribe)),
      headers: listUnsubscribe(o.unsubscribe.link),
    };
  }
  const text = o.messages
    .map(
      (m) =>
        `${m.sender}${why(m) ? ` (${why(m)})` : ""}:\n${m.text
          .split("\n")
          .map((l) => `> ${l}`)
          .join("\n")}`,
    )
    .join("\n\n");
  const html = o.messages
    .map(
      (m) =>
        `<div style="margin:.8rem 0"><strong>${esc(m.sender)}</strong>${why(m) ? ` <em>(${esc(why(m))})</em>` : ""}<div style="border-left:3px solid #ccc;padding-left:.6rem">${m.html}</div></div>`,
    )
    .join("\n");
  return {
    to: o.to,
    subject: subject(title, o.org),
    text: `${title}\n\n${text}\n\nOpen the conversation: ${o.link}\n\n${unsubscribeLine}\n`,
    html: layout(
      [`<h3 style="margin:0"><a href="${esc(o.link)}">${esc(title)}</a></h3>`, html, button(o.link, "Open the conversation")],
      unsubscribeHtml(o.unsubscribe),
    ),
    headers: listUnsubscribe(o.unsubscribe.link),
  };
}

const unsubscribeHtml = (u: { kind: UnsubscribeKind; link: string }) =>
  `You get these emails for ${esc(UNSUBSCRIBE_KINDS[u.kind].what)} while you are away. <a href="${esc(u.link)}">Turn them off</a>.`;

/** RFC 2369 and RFC 8058: mail clients offer their own one-click unsubscribe button. */
const listUnsubscribe = (link: string) => ({ "List-Unsubscribe": `<${link}>`, "List-Unsubscribe-Post": "List-Unsubscribe=One-Click" });
