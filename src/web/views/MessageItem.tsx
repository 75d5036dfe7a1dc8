// One message: sender line (when it starts a group), the server's HTML inserted as is, reactions,
// edited/moved markers, hover actions, inline editing, and a local echo's state.
import type { Signal } from "@preact/signals";
import { useSignal } from "@preact/signals";
import { memo } from "preact/compat";
import { useLayoutEffect, useRef } from "preact/hooks";
import { api } from "../api/client";
import type { Message } from "../api/types";
import { Avatar } from "../ui/Avatar";
import { Icon } from "../ui/icons";
import { dayOf, emojiChar, fullDate, timeOf } from "../ui/format";
import { sayError } from "../ui/toast";
import { discard, retry } from "../store/echo";
import { profileCard } from "./ProfileCard";
import { me, mutedUsers, realm, realmEmoji, userName } from "../store/state";
import { copyLink, deleteMessage, editing, markUnreadFrom, messageDialog, quoteReply, rawContent, replyTo, toggleReaction, toggleStar } from "./actions";

/** After the HTML is in: emoji spans get their character, links open elsewhere, KaTeX gets its CSS. */
export function enhance(el: HTMLElement) {
  for (const span of el.querySelectorAll<HTMLElement>("span.emoji")) {
    const code = [...span.classList].find((c) => c.startsWith("emoji-") && c !== "emoji")?.slice(6);
    if (code && span.textContent?.startsWith(":")) span.textContent = emojiChar(code);
  }
  for (const a of el.querySelectorAll<HTMLAnchorElement>("a[href]")) {
    const href = a.getAttribute("href")!;
    if (href.startsWith("#")) continue;
    try {
      if (new URL(href, location.href).origin !== location.origin || href.startsWith("/user_uploads/")) {
        a.target = "_blank";
        a.rel = "noopener noreferrer";
      }
    } catch {}
  }
  if (el.querySelector(".katex")) void import("../ui/katex");
}

/** Server-rendered HTML (already safe), inserted as is and then enhanced. */
export function RenderedHtml({ html, class: cls = "", testid }: { html: string; class?: string; testid?: string }) {
  const ref = useRef<HTMLDivElement>(null);
  useLayoutEffect(() => {
    ref.current!.innerHTML = html;
    enhance(ref.current!);
  }, [html]);
  return <div ref={ref} class={`rendered ${cls}`} data-testid={testid} />;
}

function Content({ html, me: isMe, name }: { html: string; me: boolean; name: string }) {
  const shown = isMe ? html.replace(/^<p>\/me /, `<p><strong class="me-name">${escapeHtml(name)}</strong> `) : html;
  return <RenderedHtml html={shown} class={`message-content${isMe ? " me-message" : ""}`} testid="message-content" />;
}

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

export function Reactions({ m }: { m: Message }) {
  if (!m.reactions.length) return null;
  const groups = new Map<string, { emoji_name: string; emoji_code: string; reaction_type: string; users: number[] }>();
  for (const r of m.reactions) {
    const k = `${r.reaction_type}:${r.emoji_code}`;
    const g = groups.get(k) ?? { emoji_name: r.emoji_name, emoji_code: r.emoji_code, reaction_type: r.reaction_type, users: [] };
    g.users.push(r.user_id);
    groups.set(k, g);
  }
  const mine = me.value.user_id;
  return (
    <div class="reactions" role="group" aria-label="Reactions">
      {[...groups.values()].map((g) => {
        const who = g.users.map((id) => (id === mine ? "You" : userName(id))).join(", ");
        const label = `${who} reacted with :${g.emoji_name}:`;
        return (
          <button
            key={g.emoji_code}
            class={`reaction${g.users.includes(mine) ? " reacted" : ""}`}
            data-testid="reaction"
            data-emoji-name={g.emoji_name}
            aria-pressed={g.users.includes(mine)}
            aria-label={label}
            title={label}
            onClick={() => toggleReaction(m, g)}
          >
            <EmojiGlyph {...g} /> <span class="reaction-count">{g.users.length}</span>
          </button>
        );
      })}
      <button class="reaction add-reaction" aria-label="Add a reaction" onClick={() => (messageDialog.value = { kind: "react", id: m.id })}>
        <Icon name="smile" size={14} />+
      </button>
    </div>
  );
}

export function EmojiGlyph({ emoji_code, emoji_name, reaction_type }: { emoji_code: string; emoji_name: string; reaction_type: string }) {
  if (reaction_type === "realm_emoji") {
    const e = realmEmoji.value[emoji_code];
    if (e) return <img class="emoji-img" src={e.source_url} alt={`:${emoji_name}:`} />;
  }
  if (reaction_type === "zulip_extra_emoji") return <span class="emoji-text">:{emoji_name}:</span>;
  return <span class="emoji-char">{emojiChar(emoji_code)}</span>;
}

function EditBox({ m, onDone }: { m: Message; onDone: () => void }) {
  const text = useSignal<string | null>(null);
  const busy = useSignal(false);
  const ref = useRef<HTMLTextAreaElement>(null);
  useLayoutEffect(() => {
    rawContent(m.id).then((raw) => {
      text.value = raw;
      requestAnimationFrame(() => ref.current?.focus());
    }, sayError);
  }, [m.id]);
  async function save() {
    busy.value = true;
    try {
      await api.patch(`messages/${m.id}`, { content: text.value });
      onDone();
    } catch (e) {
      sayError(e);
    } finally {
      busy.value = false;
    }
  }
  if (text.value === null) return <div class="edit-box">Loading…</div>;
  return (
    <div class="edit-box">
      <textarea
        ref={ref}
        data-testid="edit-content"
        aria-label="Edit message"
        value={text.value}
        rows={Math.min(12, text.value.split("\n").length + 1)}
        onInput={(e) => (text.value = e.currentTarget.value)}
        onKeyDown={(e) => {
          if (e.key === "Escape") e.stopPropagation(), onDone();
          if (e.key === "Enter" && (e.ctrlKey || e.metaKey)) e.preventDefault(), save();
        }}
      />
      <div class="row end">
        <button class="btn" onClick={onDone}>
          Cancel
        </button>
        <button class="btn primary" data-testid="edit-save" disabled={busy.value} onClick={save}>
          Save
        </button>
      </div>
    </div>
  );
}

/** Within the realm's limit for editing one's own message (0 or null: no limit). */
function canEdit(m: Message): boolean {
  if (m.sender_id !== me.value.user_id || !realm.value.realm_allow_message_editing) return false;
  const limit = realm.value.realm_message_content_edit_limit_seconds;
  return !limit || Date.now() / 1000 - m.timestamp < limit + 60;
}

function canDelete(m: Message): boolean {
  const role = me.value.role;
  if (role !== undefined && role <= 200) return true; // owners and administrators
  if (m.sender_id !== me.value.user_id) return false;
  const limit = realm.value.realm_message_content_delete_limit_seconds;
  return !limit || Date.now() / 1000 - m.timestamp < limit;
}

function ActionsMenu({ m, listIds }: { m: Message; listIds: () => number[] }) {
  const open = useSignal(false);
  const starred = m.flags.includes("starred");
  const item = (label: string, testid: string, f: () => void) => (
    <li role="none">
      <button role="menuitem" data-testid={testid} onClick={() => ((open.value = false), f())}>
        {label}
      </button>
    </li>
  );
  return (
    <div class="message-actions" data-testid="message-actions" role="toolbar" aria-label="Message actions">
      <button
        class="icon-btn"
        data-testid="action-react"
        aria-label="Add a reaction"
        title="Add a reaction"
        onClick={() => (messageDialog.value = { kind: "react", id: m.id })}
      >
        <Icon name="smile" />
      </button>
      <button class="icon-btn" data-testid="action-quote" aria-label="Quote and reply" title="Quote and reply" onClick={() => quoteReply(m)}>
        <Icon name="quote" />
      </button>
      <button
        class={`icon-btn${starred ? " starred" : ""}`}
        data-testid="action-star"
        aria-label={starred ? "Unstar" : "Star"}
        aria-pressed={starred}
        title={starred ? "Unstar" : "Star"}
        onClick={() => toggleStar(m)}
      >
        <Icon name="star" filled={starred} />
      </button>
      <div class="menu-wrap">
        <button
          class="icon-btn"
          data-testid="action-more"
          aria-label="More actions"
          aria-haspopup="menu"
          aria-expanded={open.value}
          onClick={() => (open.value = !open.value)}
        >
          <Icon name="more" />
        </button>
        {open.value && (
          <ul
            class="menu"
            role="menu"
            onKeyDown={(e) => e.key === "Escape" && (e.stopPropagation(), (open.value = false))}
            onMouseLeave={() => (open.value = false)}
          >
            {canEdit(m) && item("Edit", "action-edit", () => (editing.value = m.id))}
            {m.type === "stream" &&
              (canEdit(m) || me.value.role <= 300) &&
              item("Move or rename topic", "action-move", () => (messageDialog.value = { kind: "move", id: m.id }))}
            {item("Reply", "action-reply", () => replyTo(m))}
            {item("Copy link to message", "action-copy-link", () => copyLink(m))}
            {item("Mark as unread from here", "action-mark-unread", () => markUnreadFrom(m, listIds()))}
            {realm.value.realm_allow_edit_history !== false &&
              item("View edit history", "action-history", () => (messageDialog.value = { kind: "history", id: m.id }))}
            {realm.value.realm_enable_read_receipts &&
              item("View read receipts", "action-read-receipts", () => (messageDialog.value = { kind: "receipts", id: m.id }))}
            {canDelete(m) && item("Delete message", "action-delete", () => deleteMessage(m))}
          </ul>
        )}
      </div>
    </div>
  );
}

export interface ItemProps {
  msg: Signal<Message>;
  /** Starts a new sender group (shows avatar and name). */
  head: boolean;
  listIds: () => number[];
}

export const MessageItem = memo(function MessageItem({ msg, head, listIds }: ItemProps) {
  const m = msg.value;
  const muted = mutedUsers.value.has(m.sender_id);
  const reveal = useSignal(false);
  // The actions toolbar (four buttons, their icons) is built only once the message is pointed at or
  // focused: it is hidden until then anyway, and a window of 240 messages scrolls faster without it.
  const active = useSignal(false);
  const activate = () => void (active.value = true);
  const isEditing = editing.value === m.id;
  const edited = m.last_edit_timestamp ? "EDITED" : m.last_moved_timestamp ? "MOVED" : null;
  const unread = !m.flags.includes("read");
  return (
    <article
      class={`message${head ? " head" : ""}${unread ? " unread" : ""}${m.flags.some((f) => f.endsWith("mentioned")) ? " mentioned" : ""}${m.local ? ` local ${m.local.state}` : ""}`}
      data-testid="message"
      data-message-id={m.local ? undefined : m.id}
      data-local-id={m.local?.localId}
      aria-label={`${m.sender_full_name}, ${dayOf(m.timestamp)} ${timeOf(m.timestamp)}`}
      tabIndex={-1}
      onMouseEnter={activate}
      onFocusCapture={activate}
    >
      <div class="gutter">
        {head ? (
          <Avatar id={m.sender_id} url={m.avatar_url} name={m.sender_full_name} />
        ) : (
          <time class="hover-time" dateTime={new Date(m.timestamp * 1000).toISOString()}>
            {timeOf(m.timestamp)}
          </time>
        )}
      </div>
      <div class="body">
        {head && (
          <div class="sender-line">
            {!m.is_me_message && (
              <button class="sender-name link-btn" data-testid="sender-name" onClick={() => (profileCard.value = m.sender_id)}>
                {m.sender_full_name}
              </button>
            )}
            {m.is_agent_message && (
              <span class="agent-badge" data-testid="agent-badge" title="Written by the agent">
                agent
              </span>
            )}
            <time class="time" dateTime={new Date(m.timestamp * 1000).toISOString()} title={fullDate(m.timestamp)}>
              {timeOf(m.timestamp)}
            </time>
          </div>
        )}
        {muted && !reveal.value ? (
          <button class="link-btn muted-message" onClick={() => (reveal.value = true)}>
            This message was hidden because you muted the sender. Click to show.
          </button>
        ) : isEditing ? (
          <EditBox m={m} onDone={() => (editing.value = null)} />
        ) : m.local ? (
          <div class="message-content local-text" data-testid="message-content">
            {m.local.raw}
          </div>
        ) : (
          <Content html={m.match_content ?? m.content} me={m.is_me_message} name={m.sender_full_name} />
        )}
        {edited && !isEditing && (
          <button class="edited-marker link-btn" title="View edit history" onClick={() => (messageDialog.value = { kind: "history", id: m.id })}>
            {edited}
          </button>
        )}
        {m.local?.state === "sending" && <span class="local-state">Sending…</span>}
        {m.local?.state === "failed" && (
          <div class="local-state failed" role="alert">
            Not sent{m.local.error ? `: ${m.local.error}` : ""}.{" "}
            <button class="link-btn" data-testid="send-retry" onClick={() => retry(m.local!.localId)}>
              Retry
            </button>{" "}
            <button class="link-btn" onClick={() => discard(m.local!.localId)}>
              Discard
            </button>
          </div>
        )}
        <Reactions m={m} />
      </div>
      {!m.local && !isEditing && active.value && <ActionsMenu m={m} listIds={listIds} />}
    </article>
  );
});
