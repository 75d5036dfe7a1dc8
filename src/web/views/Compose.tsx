// The compose box: channel + topic (topic typeahead) or DM recipients; Enter sends per enter_sends;
// Markdown preview; @mention, #channel>topic and :emoji: typeahead; drafts synced as you type; files
// attached by button, paste or drop; typing notifications; the send itself is a local echo.
import { signal, useSignal } from "@preact/signals";
import { useEffect, useRef } from "preact/hooks";
import { api } from "../api/client";
import type { NarrowTerm } from "../api/types";
import { Avatar } from "../ui/Avatar";
import { Icon } from "../ui/icons";
import { allEmoji, searchEmoji, type EmojiChoice } from "../ui/emoji";
import { emojiChar } from "../ui/format";
import { sayError } from "../ui/toast";
import { Typeahead, typeaheadKey, type Suggestion } from "../ui/Typeahead";
import { send } from "../store/echo";
import { term } from "../store/narrow";
import { drafts, me, realm, realmEmoji, settings, subs, userGroups, users } from "../store/state";
import { enhance } from "./MessageItem";

export type Target = { type: "stream"; streamId: number | null; topic: string } | { type: "private"; to: number[] };

export const target = signal<Target>({ type: "stream", streamId: null, topic: "" });
export const content = signal("");
export const composeOpen = signal(false);
let draftId: number | null = null;

let followed = "";

/**
 * The narrow sets where a new message goes, unless the box holds text for somewhere else. Only a new
 * narrow does (the view may be re-announced with the same terms), and a channel's view keeps a topic
 * already typed for that channel.
 */
export function followNarrow(terms: NarrowTerm[]) {
  const key = JSON.stringify(terms);
  if (key === followed) return;
  followed = key;
  if (content.value.trim()) return;
  const ch = term(terms, "channel");
  const dm = term(terms, "dm") as number[] | undefined;
  const t = target.value;
  if (ch !== undefined) {
    const topic = term(terms, "topic");
    const kept = topic === undefined && t.type === "stream" && t.streamId === Number(ch) ? t.topic : "";
    target.value = { type: "stream", streamId: Number(ch), topic: topic === undefined ? kept : String(topic) };
  } else if (dm) target.value = { type: "private", to: dm.filter((id) => id !== me.value.user_id) };
  draftId = null;
}

export function openCompose(d: { streamId?: number; topic?: string; to?: number[]; dm?: boolean; insert?: string } = {}) {
  if (d.streamId !== undefined) target.value = { type: "stream", streamId: d.streamId, topic: d.topic ?? "" };
  else if (d.to) target.value = { type: "private", to: d.to };
  else if (d.dm) target.value = { type: "private", to: [] };
  if (d.insert) content.value = (content.value ? `${content.value.trimEnd()}\n\n` : "") + d.insert;
  composeOpen.value = true;
  requestAnimationFrame(() => {
    const focusTopic = d.streamId !== undefined && d.topic === "" && !d.insert;
    const el = document.querySelector<HTMLElement>(
      d.dm ? "[data-testid=compose-dm-recipients]" : focusTopic ? "[data-testid=compose-topic]" : "[data-testid=compose-content]",
    );
    el?.focus();
  });
}
document.addEventListener("compose", (e) => openCompose((e as CustomEvent).detail));

// ---- drafts, synced through the drafts API ------------------------------------------------------

let draftTimer: ReturnType<typeof setTimeout> | undefined;
function draftBody() {
  const t = target.value;
  return {
    type: t.type === "stream" ? (t.streamId ? "stream" : "") : t.to.length ? "private" : "",
    to: t.type === "stream" ? (t.streamId ? [t.streamId] : []) : t.to,
    topic: t.type === "stream" ? t.topic : "",
    content: content.value,
    timestamp: Math.floor(Date.now() / 1000),
  };
}
function saveDraftSoon() {
  clearTimeout(draftTimer);
  draftTimer = setTimeout(saveDraft, 800);
}
let saving: Promise<void> = Promise.resolve();
export function saveDraft(): Promise<void> {
  clearTimeout(draftTimer);
  if (!content.value.trim()) return saving;
  const body = draftBody();
  // One save at a time, so a draft is created once and a send can wait for the save it must undo.
  return (saving = saving.then(async () => {
    try {
      if (draftId && drafts.value.has(draftId)) await api.patch(`drafts/${draftId}`, { draft: body });
      else draftId = (await api.post("drafts", { drafts: [body] })).ids[0];
    } catch {
      // Drafts are a convenience: the text stays in the box whatever the server says.
    }
  }));
}
/** The message was sent: its draft goes (after a save still under way). */
function dropDraft() {
  clearTimeout(draftTimer);
  saving = saving.then(() => {
    const id = draftId;
    draftId = null;
    if (id)
      return api.delete(`drafts/${id}`).then(
        () => {},
        () => {},
      );
  });
}
/** Opens a saved draft in the compose box (from the Drafts view). */
export function restoreDraft(id: number) {
  const d = drafts.value.get(id);
  if (!d) return;
  target.value = d.type === "private" ? { type: "private", to: d.to } : { type: "stream", streamId: d.to[0] ?? null, topic: d.topic };
  content.value = d.content;
  draftId = id;
  openCompose();
}

// ---- typing notifications -----------------------------------------------------------------------

let typingSentAt = 0;
let typingStop: ReturnType<typeof setTimeout> | undefined;
function typingParams(): Record<string, unknown> | null {
  const t = target.value;
  if (t.type === "stream") return t.streamId && t.topic ? { type: "stream", stream_id: t.streamId, topic: t.topic } : null;
  return t.to.length ? { type: "direct", to: t.to } : null;
}
function typingTick() {
  const p = typingParams();
  if (!p || !(settings.value.send_private_typing_notifications ?? true)) return;
  if (Date.now() - typingSentAt > 10_000) {
    typingSentAt = Date.now();
    void api.post("typing", { ...p, op: "start" }).catch(() => {});
  }
  clearTimeout(typingStop);
  typingStop = setTimeout(stopTyping, 5000);
}
function stopTyping() {
  clearTimeout(typingStop);
  if (!typingSentAt) return;
  typingSentAt = 0;
  const p = typingParams();
  if (p) void api.post("typing", { ...p, op: "stop" }).catch(() => {});
}

// ---- uploads ------------------------------------------------------------------------------------

const uploading = signal(0);
async function upload(files: Iterable<File>, insert: (text: string) => void) {
  for (const file of files) {
    uploading.value++;
    const placeholder = `[Uploading ${file.name}…]()`;
    insert(placeholder);
    try {
      const form = new FormData();
      form.append("file", file, file.name);
      const r = await api.post("user_uploads", form);
      const url: string = r.url ?? r.uri;
      const name = (r.filename ?? file.name).replace(/[[\]]/g, "");
      content.value = content.value.replace(placeholder, `[${name}](${url})`);
    } catch (e) {
      content.value = content.value.replace(placeholder, "");
      sayError(e);
    } finally {
      uploading.value--;
    }
  }
  saveDraftSoon();
}

// ---- content typeahead (@, #, :) ------------------------------------------------------------------

interface Token {
  kind: "@" | "#" | ":" | ">";
  start: number;
  q: string;
  channel?: string;
}

function tokenAt(text: string, caret: number): Token | null {
  const before = text.slice(0, caret);
  let m = before.match(/(?:^|\s)#\*\*([^*>]+)>([^*]*)$/);
  if (m) return { kind: ">", start: caret - m[2]!.length, q: m[2]!, channel: m[1] };
  m = before.match(/(?:^|[\s(])@_?(\*\*)?([^\s@*]*(?: [^\s@*]*)?)$/);
  if (m && m[2]!.length <= 30) return { kind: "@", start: caret - m[0].trimStart().length, q: m[2]! };
  m = before.match(/(?:^|[\s(])#(\*\*)?([^\s#*]*)$/);
  if (m) return { kind: "#", start: caret - m[0].trimStart().length, q: m[2]! };
  m = before.match(/(?:^|[\s(]):([a-z0-9_+-]{2,})$/i);
  if (m) return { kind: ":", start: caret - m[1]!.length - 1, q: m[1]! };
  return null;
}

const emojiCache = signal<EmojiChoice[] | null>(null);
const topicCache = new Map<number, string[]>();
async function topicsOf(streamId: number): Promise<string[]> {
  if (!topicCache.has(streamId)) {
    const r = await api.get(`users/me/${streamId}/topics`);
    topicCache.set(
      streamId,
      r.topics.map((t: { name: string }) => t.name),
    );
  }
  return topicCache.get(streamId)!;
}

function userMatches(q: string) {
  q = q.toLowerCase();
  return [...users.value.values()]
    .filter(
      (u) =>
        u.is_active &&
        (u.full_name
          .toLowerCase()
          .split(/\s+/)
          .some((w) => w.startsWith(q)) ||
          u.full_name.toLowerCase().startsWith(q) ||
          u.email.toLowerCase().startsWith(q)),
    )
    .sort((a, b) => Number(a.is_bot) - Number(b.is_bot) || a.full_name.localeCompare(b.full_name))
    .slice(0, 8);
}

function suggestionsFor(tok: Token | null, replace: (start: number, text: string) => void, topicList: string[]): Suggestion[] {
  if (!tok) return [];
  const q = tok.q.toLowerCase();
  if (tok.kind === "@") {
    const people: Suggestion[] = userMatches(q).map((u) => ({
      key: `u${u.user_id}`,
      label: (
        <span class="ta-row">
          <Avatar id={u.user_id} size={20} /> {u.full_name} <small>{u.email}</small>
        </span>
      ),
      pick: () => replace(tok.start, `@**${u.full_name}|${u.user_id}** `),
    }));
    const groups: Suggestion[] = [...userGroups.value.values()]
      .filter((g) => !g.is_system_group && !g.deactivated && g.name.toLowerCase().startsWith(q))
      .slice(0, 4)
      .map((g) => ({
        key: `g${g.id}`,
        label: (
          <span class="ta-row">
            👥 {g.name} <small>{g.description}</small>
          </span>
        ),
        pick: () => replace(tok.start, `@*${g.name}* `),
      }));
    const wildcards: Suggestion[] = ["all", "topic"]
      .filter((w) => w.startsWith(q) && q.length > 0)
      .map((w) => ({ key: w, label: <span class="ta-row">@{w}</span>, pick: () => replace(tok.start, `@**${w}** `) }));
    return [...people, ...groups, ...wildcards].slice(0, 10);
  }
  if (tok.kind === "#")
    return [...subs.value.values()]
      .filter((s) => s.name.toLowerCase().includes(q))
      .sort((a, b) => Number(!a.name.toLowerCase().startsWith(q)) - Number(!b.name.toLowerCase().startsWith(q)))
      .slice(0, 8)
      .map((s) => ({
        key: `c${s.stream_id}`,
        label: (
          <span class="ta-row">
            <span style={{ color: s.color }}>#</span> {s.name}
          </span>
        ),
        pick: () => replace(tok.start, `#**${s.name}>`),
      }));
  if (tok.kind === ">") {
    return [
      {
        key: "__channel",
        label: <span class="ta-row">#{tok.channel} (the whole channel)</span>,
        pick: () => replace(tok.start - tok.channel!.length - 4, `#**${tok.channel}** `),
      },
      ...topicList
        .filter((t) => t.toLowerCase().includes(q))
        .slice(0, 8)
        .map((t) => ({
          key: `t${t}`,
          label: (
            <span class="ta-row">
              {tok.channel} › {t}
            </span>
          ),
          pick: () => replace(tok.start, `${t}** `),
        })),
    ];
  }
  const list = emojiCache.value;
  if (!list) {
    void allEmoji().then((l) => (emojiCache.value = l));
    return [];
  }
  return searchEmoji(list, q, 8).map((e) => ({
    key: `e${e.emoji_code}`,
    label: (
      <span class="ta-row">
        {e.reaction_type === "realm_emoji" ? <img class="emoji-img" src={realmEmojiUrl(e.emoji_code)} alt="" /> : emojiChar(e.emoji_code)} :{e.emoji_name}:
      </span>
    ),
    pick: () => replace(tok.start, `:${e.emoji_name}: `),
  }));
}
const realmEmojiUrl = (id: string) => realmEmoji.value[id]?.source_url ?? "";

// ---- the box ------------------------------------------------------------------------------------

function RecipientPicker() {
  const t = target.value;
  const query = useSignal("");
  const active = useSignal(0);
  const topicQuery = useSignal<string[] | null>(null);
  const topicFocus = useSignal(false);
  const channels = [...subs.value.values()].sort((a, b) => a.name.localeCompare(b.name));
  if (t.type === "stream") {
    const topicItems: Suggestion[] =
      topicFocus.value && topicQuery.value
        ? topicQuery.value
            .filter((x) => x.toLowerCase().includes(t.topic.toLowerCase()) && x !== t.topic)
            .slice(0, 8)
            .map((x) => ({
              key: x,
              label: x,
              pick: () => (
                (target.value = { ...t, topic: x }), (topicFocus.value = false), document.querySelector<HTMLElement>("[data-testid=compose-content]")?.focus()
              ),
            }))
        : [];
    return (
      <div class="recipient-row" key="stream">
        <select
          data-testid="compose-channel"
          aria-label="Channel"
          value={t.streamId ?? ""}
          onChange={(e) => ((target.value = { ...t, streamId: Number(e.currentTarget.value) || null }), (topicQuery.value = null))}
        >
          <option value="">Choose a channel</option>
          {channels.map((s) => (
            <option key={s.stream_id} value={s.stream_id}>
              #{s.name}
            </option>
          ))}
        </select>
        <span class="arrow" aria-hidden="true">
          ›
        </span>
        <div class="ta-wrap grow">
          <input
            data-testid="compose-topic"
            aria-label="Topic"
            placeholder="Topic"
            maxLength={realm.value.max_topic_length ?? 60}
            value={t.topic}
            role="combobox"
            aria-expanded={topicItems.length > 0}
            aria-controls="topic-ta"
            aria-activedescendant={topicItems.length ? `topic-ta-${active.value}` : undefined}
            onFocus={() => {
              topicFocus.value = true;
              if (t.streamId)
                topicsOf(t.streamId).then(
                  (l) => (topicQuery.value = l),
                  () => {},
                );
            }}
            onBlur={() => setTimeout(() => (topicFocus.value = false), 100)}
            onInput={(e) => ((target.value = { ...t, topic: e.currentTarget.value }), (active.value = 0))}
            onKeyDown={(e) => typeaheadKey(e, topicItems, active, () => (topicFocus.value = false))}
          />
          <Typeahead id="topic-ta" items={topicItems} active={active.value} onHover={(i) => (active.value = i)} />
        </div>
        <button class="link-btn switch" data-testid="compose-switch-dm" onClick={() => (target.value = { type: "private", to: [] })}>
          Direct message instead
        </button>
      </div>
    );
  }
  const items: Suggestion[] = query.value
    ? userMatches(query.value)
        .filter((u) => !t.to.includes(u.user_id) && u.user_id !== me.value.user_id)
        .map((u) => ({
          key: String(u.user_id),
          label: (
            <span class="ta-row">
              <Avatar id={u.user_id} size={20} /> {u.full_name} <small>{u.email}</small>
            </span>
          ),
          pick: () => ((target.value = { type: "private", to: [...t.to, u.user_id] }), (query.value = "")),
        }))
    : [];
  return (
    <div class="recipient-row" key="dm">
      <span class="to-label">To:</span>
      <div class="pills grow ta-wrap">
        {t.to.map((id) => (
          <span class="pill" key={id}>
            {users.value.get(id)?.full_name ?? id}
            <button
              class="pill-x"
              aria-label={`Remove ${users.value.get(id)?.full_name}`}
              onClick={() => (target.value = { type: "private", to: t.to.filter((x) => x !== id) })}
            >
              ×
            </button>
          </span>
        ))}
        <input
          data-testid="compose-dm-recipients"
          aria-label="Direct message recipients"
          placeholder={t.to.length ? "Add another person" : "Name or email"}
          value={query.value}
          role="combobox"
          aria-expanded={items.length > 0}
          aria-controls="dm-ta"
          aria-activedescendant={items.length ? `dm-ta-${active.value}` : undefined}
          onInput={(e) => ((query.value = e.currentTarget.value), (active.value = 0))}
          onKeyDown={(e) => {
            if (typeaheadKey(e, items, active, () => (query.value = ""))) return;
            if (e.key === "Backspace" && !query.value && t.to.length) target.value = { type: "private", to: t.to.slice(0, -1) };
          }}
        />
        <Typeahead id="dm-ta" items={items} active={active.value} onHover={(i) => (active.value = i)} />
      </div>
      <button class="link-btn switch" data-testid="compose-switch-channel" onClick={() => (target.value = { type: "stream", streamId: null, topic: "" })}>
        Channel message instead
      </button>
    </div>
  );
}

/** What the empty message box says: where the message goes, once a channel is chosen. */
function placeholderOf(t: Target): string {
  if (t.type === "private") return "Direct message";
  const name = subs.value.get(t.streamId ?? 0)?.name;
  if (!name) return "Message";
  return `Message #${name}${t.topic ? ` › ${t.topic}` : ""}`;
}

export function Compose() {
  const preview = useSignal<string | null>(null);
  const caret = useSignal(0);
  const active = useSignal(0);
  const closedToken = useSignal<number | null>(null);
  const topicList = useSignal<string[]>([]);
  const dragging = useSignal(false);
  const area = useRef<HTMLTextAreaElement>(null);
  const previewRef = useRef<HTMLDivElement>(null);
  const fileInput = useRef<HTMLInputElement>(null);
  const error = useSignal<string | null>(null);
  const t = target.value;
  const enterSends = !!settings.value.enter_sends;

  const tok = tokenAt(content.value, caret.value);
  useEffect(() => {
    if (tok?.kind !== ">") return;
    const s = [...subs.value.values()].find((x) => x.name === tok.channel);
    if (s)
      topicsOf(s.stream_id).then(
        (l) => (topicList.value = l),
        () => {},
      );
  }, [tok?.kind, tok?.channel]);
  useEffect(() => {
    if (preview.value !== null && previewRef.current) enhance(previewRef.current);
  }, [preview.value]);

  function replace(start: number, text: string) {
    const v = content.value;
    content.value = v.slice(0, start) + text + v.slice(caret.value);
    const pos = start + text.length;
    caret.value = pos;
    requestAnimationFrame(() => area.current?.setSelectionRange(pos, pos));
    area.current?.focus();
  }
  const items = tok && closedToken.value !== tok.start ? suggestionsFor(tok, replace, topicList.value) : [];

  function insertAtCaret(text: string) {
    const el = area.current;
    const at = el ? el.selectionStart : content.value.length;
    const v = content.value;
    const pad = at > 0 && !/\s$/.test(v.slice(0, at)) ? " " : "";
    content.value = v.slice(0, at) + pad + text + v.slice(at);
  }

  function submit() {
    error.value = null;
    const text = content.value.trim();
    if (!text || uploading.value) return;
    if (t.type === "stream") {
      if (!t.streamId) return void (error.value = "Choose a channel.");
      const mandatory = realm.value.realm_mandatory_topics || realm.value.realm_topics_policy === "disable_empty_topic";
      if (!t.topic.trim() && mandatory) return void (error.value = "Topics are required in this organization.");
      send({ type: "stream", streamId: t.streamId, streamName: subs.value.get(t.streamId)?.name, topic: t.topic.trim(), content: text });
    } else {
      if (!t.to.length) return void (error.value = "Add at least one recipient.");
      send({ type: "private", to: t.to, content: text });
    }
    stopTyping();
    dropDraft();
    content.value = "";
    preview.value = null;
    composeOpen.value = false; // outside a message list the box closes once sent
  }

  async function togglePreview() {
    if (preview.value !== null) return void (preview.value = null);
    try {
      preview.value = (await api.post("messages/render", { content: content.value || " " })).rendered;
    } catch (e) {
      sayError(e);
    }
  }

  return (
    <section
      class={`compose${dragging.value ? " dragging" : ""}`}
      aria-label="Compose a message"
      data-testid="compose"
      onDragOver={(e) => (e.preventDefault(), (dragging.value = true))}
      onDragLeave={() => (dragging.value = false)}
      onDrop={(e) => {
        e.preventDefault();
        dragging.value = false;
        if (e.dataTransfer?.files.length) void upload(e.dataTransfer.files, insertAtCaret);
      }}
    >
      <RecipientPicker />
      <div class="ta-wrap">
        {preview.value !== null ? (
          <div class="preview rendered" ref={previewRef} data-testid="compose-preview" dangerouslySetInnerHTML={{ __html: preview.value }} />
        ) : (
          <textarea
            ref={area}
            data-testid="compose-content"
            aria-label="Message"
            placeholder={placeholderOf(t)}
            rows={Math.min(14, Math.max(2, content.value.split("\n").length))}
            maxLength={realm.value.max_message_length ?? 10000}
            value={content.value}
            aria-autocomplete="list"
            aria-expanded={items.length > 0}
            aria-controls="content-ta"
            aria-activedescendant={items.length ? `content-ta-${active.value}` : undefined}
            onInput={(e) => {
              content.value = e.currentTarget.value;
              caret.value = e.currentTarget.selectionStart;
              active.value = 0;
              closedToken.value = null;
              saveDraftSoon();
              typingTick();
            }}
            onClick={(e) => (caret.value = e.currentTarget.selectionStart)}
            onKeyUp={(e) => ["ArrowLeft", "ArrowRight", "Home", "End"].includes(e.key) && (caret.value = e.currentTarget.selectionStart)}
            onKeyDown={(e) => {
              if (typeaheadKey(e, items, active, () => (closedToken.value = tok?.start ?? null))) return;
              if (e.key === "Enter" && !e.shiftKey && !e.isComposing && (enterSends ? !e.ctrlKey && !e.metaKey && !e.altKey : e.ctrlKey || e.metaKey)) {
                e.preventDefault();
                submit();
              }
              if (e.key === "Escape") {
                e.currentTarget.blur();
                void saveDraft();
                composeOpen.value = false;
              }
            }}
            onPaste={(e) => {
              const files = [...(e.clipboardData?.files ?? [])];
              if (files.length) {
                e.preventDefault();
                void upload(files, insertAtCaret);
              }
            }}
          />
        )}
        <Typeahead id="content-ta" items={items} active={active.value} onHover={(i) => (active.value = i)} />
      </div>
      <div class="compose-bar">
        <button class="icon-btn" data-testid="compose-attach" aria-label="Attach files" title="Attach files" onClick={() => fileInput.current?.click()}>
          <Icon name="clip" size={18} />
        </button>
        <input
          ref={fileInput}
          type="file"
          multiple
          hidden
          data-testid="compose-file"
          onChange={(e) => (upload([...(e.currentTarget.files ?? [])], insertAtCaret), (e.currentTarget.value = ""))}
        />
        <button
          class={`btn small${preview.value !== null ? " pressed" : ""}`}
          data-testid="compose-preview-toggle"
          aria-pressed={preview.value !== null}
          onClick={togglePreview}
        >
          {preview.value !== null ? "Edit" : "Preview"}
        </button>
        {uploading.value > 0 && <span class="hint">Uploading…</span>}
        {error.value && (
          <span class="compose-error" role="alert">
            {error.value}
          </span>
        )}
        <span class="grow" />
        <label class="hint enter-sends">
          <input type="checkbox" checked={enterSends} onChange={(e) => api.patch("settings", { enter_sends: e.currentTarget.checked }).catch(sayError)} /> Enter
          to send
        </label>
        <button class="btn primary" data-testid="compose-send" disabled={!content.value.trim() || uploading.value > 0} onClick={submit}>
          Send
        </button>
      </div>
    </section>
  );
}
