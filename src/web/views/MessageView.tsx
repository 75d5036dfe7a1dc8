// A narrow's messages: grouped by day, conversation and sender; windowed (at most WINDOW messages in
// the page, so a topic of 10,000 scrolls smoothly); older and newer ones load near the edges; opens at
// the first unread; marks messages read as they are seen.
import { useSignal } from "@preact/signals";
import { Fragment } from "preact";
import { useCallback, useEffect, useLayoutEffect, useRef } from "preact/hooks";
import { api } from "../api/client";
import type { Message, NarrowTerm } from "../api/types";
import { dayOf } from "../ui/format";
import { Icon } from "../ui/icons";
import { Modal } from "../ui/Modal";
import { say, sayError } from "../ui/toast";
import { echoes } from "../store/echo";
import { listFor, type MessageList } from "../store/lists";
import { dmOperand, dmPeers, matches, term } from "../store/narrow";
import { can, holds } from "../store/permissions";
import { channelHref, dmHref, go, topicHref } from "../store/router";
import { isMutedChannel, isMutedTopic, me, messages, streams, subs, typing, typingKey, unreadCounts, userName } from "../store/state";
import { readMarkingPaused } from "./actions";
import { MessageItem } from "./MessageItem";
import { TopicExt } from "./ext/TopicExt";

const WINDOW = 240;
const STEP = 20;
const EDGE = 800; // px from an edge at which the window moves or more messages load

export let openList: MessageList | null = null;

export function narrowTitle(terms: NarrowTerm[]): string {
  if (!terms.length) return "Combined feed";
  const ch = term(terms, "channel");
  const topic = term(terms, "topic");
  const dm = term(terms, "dm") as number[] | undefined;
  const is = term(terms, "is");
  const parts: string[] = [];
  if (ch !== undefined) parts.push(`#${subs.value.get(Number(ch))?.name ?? streams.value.get(Number(ch))?.name ?? "unknown channel"}`);
  if (topic !== undefined) parts.push(String(topic) || "general chat");
  if (dm) parts.push(dm.length === 1 && dm[0] === me.value.user_id ? "Notes to self" : dm.map(userName).join(", "));
  if (is === "starred") parts.push("Starred messages");
  if (is === "mentioned") parts.push("Mentions");
  if (is === "dm") parts.push("Direct messages");
  const search = terms.filter(
    (t) => !["channel", "topic", "dm"].includes(t.operator) && !(t.operator === "is" && ["starred", "mentioned", "dm"].includes(String(t.operand))),
  );
  if (search.length)
    parts.push(`Search: ${search.map((t) => (t.operator === "search" ? t.operand : `${t.negated ? "-" : ""}${t.operator}:${t.operand}`)).join(" ")}`);
  return parts.join(" › ");
}

function NarrowHeader({ terms }: { terms: NarrowTerm[] }) {
  const ch = term(terms, "channel") as number | undefined;
  const topic = term(terms, "topic") as string | undefined;
  const sub = ch !== undefined ? subs.value.get(ch) : undefined;
  const counts = unreadCounts.value;
  const n = ch === undefined ? 0 : topic !== undefined ? (counts.topic.get(`${ch}:${topic.toLowerCase()}`) ?? 0) : (counts.channel.get(ch) ?? 0);
  const markRead = () =>
    (topic !== undefined ? api.post("mark_topic_as_read", { stream_id: ch, topic_name: topic }) : api.post("mark_stream_as_read", { stream_id: ch })).catch(
      sayError,
    );
  return (
    <div class="narrow-header">
      <h1 class="narrow-title">
        {ch !== undefined ? (
          <>
            <a href={channelHref(ch)} class="narrow-channel">
              <span style={{ color: sub?.color }}>
                <Icon name={sub?.invite_only ? "lock" : "hash"} size={17} />
              </span>
              {sub?.name ?? streams.value.get(ch)?.name}
            </a>
            {topic !== undefined && <span class="topic-crumb"> › {topic || <em>general chat</em>}</span>}
          </>
        ) : (
          narrowTitle(terms)
        )}
      </h1>
      {sub && topic === undefined && sub.description && <span class="narrow-description" dangerouslySetInnerHTML={{ __html: sub.rendered_description }} />}
      {ch !== undefined && topic !== undefined && <TopicMuteButton streamId={ch} topic={topic} />}
      {ch !== undefined && topic !== undefined && mayDeleteTopic(ch) && <DeleteTopicButton streamId={ch} topic={topic} />}
      {sub && topic === undefined && <ChannelButtons streamId={ch!} />}
      {n > 0 && (
        <button class="btn small" data-testid="mark-read" onClick={markRead}>
          Mark as read
        </button>
      )}
    </div>
  );
}

const setProperty = (streamId: number, property: string, value: unknown) =>
  api.post("users/me/subscriptions/properties", { subscription_data: [{ stream_id: streamId, property, value }] }).catch(sayError);

function ChannelButtons({ streamId }: { streamId: number }) {
  const s = subs.value.get(streamId)!;
  return (
    <>
      <button class="btn small" data-testid="pin-channel" aria-pressed={s.pin_to_top} onClick={() => setProperty(streamId, "pin_to_top", !s.pin_to_top)}>
        {s.pin_to_top ? "Unpin" : "Pin"}
      </button>
      <button class="btn small" data-testid="mute-channel" aria-pressed={s.is_muted} onClick={() => setProperty(streamId, "is_muted", !s.is_muted)}>
        {s.is_muted ? "Unmute" : "Mute"}
      </button>
      {me.value.role <= 200 && (
        <a class="btn small" href={`#organization/channels/${streamId}`} data-testid="channel-settings">
          Channel settings
        </a>
      )}
      <input
        type="color"
        class="color-pick"
        aria-label="Channel color"
        title="Channel color"
        value={s.color}
        onChange={(e) => setProperty(streamId, "color", e.currentTarget.value)}
      />
    </>
  );
}

function TopicMuteButton({ streamId, topic }: { streamId: number; topic: string }) {
  const muted = isMutedTopic(streamId, topic);
  const set = () => api.post("user_topics", { stream_id: streamId, topic, visibility_policy: muted ? 0 : 1 }).catch(sayError);
  return (
    <button class="btn small" data-testid="mute-topic" aria-pressed={muted} onClick={set}>
      {muted ? "Unmute topic" : "Mute topic"}
    </button>
  );
}

/** Deleting a whole topic is for holders of "delete any message", in the organization or the channel. */
const mayDeleteTopic = (streamId: number) => can("can_delete_any_message_group") || holds(streams.value.get(streamId)?.can_delete_any_message_group);

function DeleteTopicButton({ streamId, topic }: { streamId: number; topic: string }) {
  const asking = useSignal(false);
  const busy = useSignal(false);
  async function remove() {
    busy.value = true;
    try {
      // The server deletes in batches; ask again until it says the topic is empty.
      while (!(await api.post("streams/" + streamId + "/delete_topic", { topic_name: topic })).complete);
      asking.value = false;
      say("Topic deleted");
      go(channelHref(streamId));
    } catch (e) {
      sayError(e);
    } finally {
      busy.value = false;
    }
  }
  return (
    <>
      <button class="btn small" data-testid="delete-topic" onClick={() => (asking.value = true)}>
        Delete topic
      </button>
      {asking.value && (
        <Modal title="Delete topic" onClose={() => (asking.value = false)}>
          <p>
            Delete every message in <strong>{topic || "general chat"}</strong>? This cannot be undone.
          </p>
          <div class="row end">
            <button class="btn" onClick={() => (asking.value = false)}>
              Cancel
            </button>
            <button class="btn danger" data-testid="confirm-delete-topic" disabled={busy.value} onClick={remove}>
              Delete topic
            </button>
          </div>
        </Modal>
      )}
    </>
  );
}

/** The conversation a message belongs to, as a header in views that mix conversations. */
function RecipientBar({ m }: { m: Message }) {
  if (m.type === "stream") {
    const s = subs.value.get(m.stream_id!);
    return (
      <div class="recipient-bar" style={{ borderLeftColor: s?.color }}>
        <a href={channelHref(m.stream_id!)} class="recipient-channel">
          #{s?.name ?? (typeof m.display_recipient === "string" ? m.display_recipient : "")}
        </a>
        <span aria-hidden="true"> › </span>
        <a
          href={topicHref(m.stream_id!, m.subject)}
          class="recipient-topic"
          dangerouslySetInnerHTML={m.match_subject ? { __html: m.match_subject } : undefined}
        >
          {m.match_subject ? undefined : m.subject || <em>general chat</em>}
        </a>
      </div>
    );
  }
  const peers = dmPeers(m, me.value.user_id);
  return (
    <div class="recipient-bar dm">
      <a href={dmHref(dmOperand(peers, me.value.user_id))}>{peers.length ? `You and ${peers.map(userName).join(", ")}` : "Notes to self"}</a>
    </div>
  );
}

const sameConversation = (a: Message, b: Message) =>
  a.type === b.type &&
  (a.type === "stream" ? a.stream_id === b.stream_id && a.subject.toLowerCase() === b.subject.toLowerCase() : dmPeers(a, 0).join() === dmPeers(b, 0).join());

export function MessageView({ terms, near }: { terms: NarrowTerm[]; near?: number }) {
  const list = listFor(terms, near);
  openList = list;
  const scroller = useRef<HTMLDivElement>(null);
  const win = useSignal<{ lo: number; hi: number } | null>(null); // message ids bounding the window
  const stuck = useRef(true); // scrolled to the bottom: stay there as messages arrive
  const isSearch = terms.some((t) => t.operator === "search" || t.operator === "has" || t.operator === "sender" || t.operator === "near");
  const single = term(terms, "topic") !== undefined || term(terms, "dm") !== undefined;

  useEffect(() => {
    win.value = null;
    stuck.current = true;
    readMarkingPaused.value = false;
    void list.start();
  }, [list]);

  const ids = list.ids.value;
  // The window: start around the anchor; follow new messages while stuck to the bottom.
  let { lo, hi } = win.value ?? { lo: 0, hi: 0 };
  if (!win.value && ids.length) {
    const a = list.anchor !== null ? ids.indexOf(list.anchor) : ids.length - 1;
    const start = Math.max(0, Math.min(a - 40, ids.length - WINDOW));
    lo = ids[start]!;
    hi = ids[Math.min(ids.length - 1, start + WINDOW - 1)]!;
  } else if (win.value && stuck.current && ids.length && list.foundNewest.value) {
    hi = ids.at(-1)!;
  }
  const shown = ids.filter((id) => id >= lo && id <= hi);
  if (shown.length > WINDOW + STEP && stuck.current) lo = shown[shown.length - WINDOW]!;
  const visible = shown.filter((id) => id >= lo);
  const myEchoes = echoes.value.filter((e) => list.foundNewest.value && visible.at(-1) === ids.at(-1) && matches(terms, e, me.value.user_id, isMutedChannel));

  // Keeps what the reader looks at in place when the window changes above it (the browser's own scroll
  // anchoring does not act at scrollTop 0, which is where older messages get added).
  const anchor = useRef<{ key: string; top: number } | null>(null);
  function captureAnchor() {
    const el = scroller.current;
    if (!el) return;
    const top = el.getBoundingClientRect().top;
    for (const m of el.querySelectorAll<HTMLElement>(".message")) {
      const r = m.getBoundingClientRect();
      if (r.bottom > top) return void (anchor.current = { key: m.dataset.messageId ?? m.dataset.localId ?? "", top: r.top });
    }
  }
  const setWindow = (w: { lo: number; hi: number }) => {
    captureAnchor();
    win.value = w;
  };

  useLayoutEffect(() => {
    const el = scroller.current;
    if (!el) return;
    if (!win.value && ids.length) {
      win.value = { lo, hi };
      // Open at the anchor (first unread or linked message), else at the bottom.
      requestAnimationFrame(() => {
        const target = list.anchor !== null ? el.querySelector<HTMLElement>(`[data-message-id="${list.anchor}"]`) : null;
        if (target && list.anchor !== ids.at(-1)) {
          el.scrollTop = target.offsetTop - 80;
          stuck.current = false;
          if (near) target.classList.add("selected");
        } else el.scrollTop = el.scrollHeight;
        onScroll();
      });
      return;
    }
    if (win.value && (win.value.lo !== lo || win.value.hi !== hi)) win.value = { lo, hi };
    if (stuck.current) el.scrollTop = el.scrollHeight;
    else if (anchor.current) {
      const a = anchor.current;
      anchor.current = null;
      const m = el.querySelector<HTMLElement>(`[data-message-id="${a.key}"], [data-local-id="${a.key}"]`);
      if (m) el.scrollTop += m.getBoundingClientRect().top - a.top;
      // Still near the top (short messages): keep filling, one step per frame.
      if (el.scrollTop < EDGE) requestAnimationFrame(onScroll);
    }
  });

  function onScroll() {
    const el = scroller.current;
    if (!el || !win.value) return;
    const all = list.ids.value;
    const loI = all.indexOf(win.value.lo);
    const hiI = all.indexOf(win.value.hi);
    stuck.current = el.scrollHeight - el.scrollTop - el.clientHeight < 40 && hiI === all.length - 1 && list.foundNewest.value;
    if (el.scrollTop < EDGE) {
      if (loI > 0) {
        const nlo = Math.max(0, loI - STEP);
        setWindow({ lo: all[nlo]!, hi: all[Math.min(hiI, nlo + WINDOW + STEP)]! });
      } else if (!list.foundOldest.value && !list.loading.value) {
        void list.older().then(() => {
          const a2 = list.ids.value;
          const i = a2.indexOf(win.value!.lo);
          if (i <= 0) return;
          const nlo = Math.max(0, i - STEP);
          setWindow({ lo: a2[nlo]!, hi: a2[Math.min(a2.indexOf(win.value!.hi), nlo + WINDOW + STEP)]! });
        });
      }
    } else if (el.scrollHeight - el.scrollTop - el.clientHeight < EDGE) {
      if (hiI < all.length - 1) {
        const nhi = Math.min(all.length - 1, hiI + STEP);
        setWindow({ lo: all[Math.max(loI, nhi - WINDOW - STEP)]!, hi: all[nhi]! });
      } else if (!list.foundNewest.value && !list.loading.value)
        void list.newer().then(() => {
          const a2 = list.ids.value;
          setWindow({ ...win.value!, hi: a2[Math.min(a2.length - 1, a2.indexOf(win.value!.hi) + STEP)]! });
        });
    }
  }

  useReadMarking(scroller, !isSearch);

  // Stable, so the memoized messages re-render only when their own data changes.
  const listIds = useCallback(() => list.ids.value, [list]);
  let prev: Message | undefined;
  const rows = visible.map((id) => {
    const s = messages.get(id);
    if (!s) return null;
    const m = s.value;
    const newDay = !prev || dayOf(prev.timestamp) !== dayOf(m.timestamp);
    const newConv = !single && (!prev || !sameConversation(prev, m));
    const head = newDay || newConv || !prev || prev.sender_id !== m.sender_id || m.timestamp - prev.timestamp > 600 || m.is_me_message || prev.is_me_message;
    prev = m;
    return (
      <Fragment key={id}>
        {newDay && (
          <div class="day-divider" role="separator">
            <span>{dayOf(m.timestamp)}</span>
          </div>
        )}
        {newConv && <RecipientBar m={m} />}
        <MessageItem msg={s} head={head} listIds={listIds} />
      </Fragment>
    );
  });
  const typists = typingHere(terms);

  return (
    <section class="message-view" aria-label={narrowTitle(terms)}>
      <NarrowHeader terms={terms} />
      <TopicExt terms={terms} />
      <div
        class="message-scroller"
        ref={scroller}
        onScroll={onScroll}
        onClick={openSpoiler}
        data-testid="message-list"
        role="log"
        aria-live="polite"
        aria-relevant="additions"
        tabIndex={0}
      >
        {list.ids.value.length > 0 &&
          visible[0] === ids[0] &&
          (list.foundOldest.value ? (
            <div class="list-edge">{isSearch ? "" : "This is the beginning of the conversation."}</div>
          ) : (
            <div class="list-edge">Loading older messages…</div>
          ))}
        {rows}
        {myEchoes.map((e) => {
          const head = !prev || prev.sender_id !== e.sender_id || (!single && !sameConversation(prev, e));
          prev = e;
          return <MessageItem key={e.local.localId} msg={{ value: e } as any} head={head} listIds={listIds} />;
        })}
        {list.loading.value && !ids.length && <div class="list-edge">Loading…</div>}
        {list.error.value && (
          <div class="list-edge error" role="alert">
            {list.error.value}
          </div>
        )}
        {!list.loading.value && !list.error.value && list.foundOldest.value && list.foundNewest.value && !ids.length && !myEchoes.length && (
          <div class="empty-narrow">{isSearch ? "No messages match this search." : "No messages here yet. Start the conversation!"}</div>
        )}
      </div>
      <div class="typing-line" aria-live="polite">
        {typists.length > 0 && `${typists.map(userName).join(", ")} ${typists.length > 1 ? "are" : "is"} typing…`}
      </div>
    </section>
  );
}

/** Spoilers open (and close) on a click on their header. */
function openSpoiler(e: MouseEvent) {
  const header = (e.target as HTMLElement).closest(".spoiler-header");
  const block = header?.closest(".spoiler-block");
  if (!block) return;
  const open = block.classList.toggle("open");
  block.querySelector(".spoiler-content")?.setAttribute("aria-hidden", String(!open));
}

function typingHere(terms: NarrowTerm[]): number[] {
  const ch = term(terms, "channel");
  const topic = term(terms, "topic");
  const dm = term(terms, "dm") as number[] | undefined;
  const t = typing.value;
  if (ch !== undefined && topic !== undefined) return t.get(typingKey({ type: "stream", stream_id: Number(ch), topic: String(topic) })) ?? [];
  if (ch !== undefined) return [...new Set([...t].filter(([k]) => k.startsWith(`s:${ch}:`)).flatMap(([, ids]) => ids))];
  if (dm) return t.get(typingKey({ type: "private", dm })) ?? [];
  return [];
}

/** Marks unread messages read once half of them (or the whole screen) was seen while the tab has focus. */
function useReadMarking(scroller: { current: HTMLDivElement | null }, enabled: boolean) {
  useEffect(() => {
    const root = scroller.current;
    if (!root || !enabled) return;
    const pending = new Set<number>();
    let timer: ReturnType<typeof setTimeout> | undefined;
    const seen = new Set<Element>();
    const flush = () => {
      timer = undefined;
      if (document.hidden || readMarkingPaused.value) return pending.clear();
      const ids = [...pending].filter((id) => messages.get(id)?.value.flags.includes("read") === false);
      pending.clear();
      if (ids.length) api.post("messages/flags", { messages: ids, op: "add", flag: "read" }).catch(() => {});
    };
    const consider = () => {
      for (const el of seen) {
        const id = Number((el as HTMLElement).dataset.messageId);
        if (id) pending.add(id);
      }
      if (pending.size && !timer) timer = setTimeout(flush, 400);
    };
    const io = new IntersectionObserver(
      (entries) => {
        for (const e of entries) {
          const big = e.intersectionRect.height >= (e.rootBounds?.height ?? 0) * 0.5;
          if (e.isIntersecting && (e.intersectionRatio >= 0.5 || big)) seen.add(e.target);
          else seen.delete(e.target);
        }
        consider();
      },
      { root, threshold: [0, 0.5, 1] },
    );
    const watch = () => root.querySelectorAll(".message.unread[data-message-id]").forEach((el) => io.observe(el));
    watch();
    const mo = new MutationObserver(watch);
    mo.observe(root, { childList: true, subtree: true, attributes: true, attributeFilter: ["class"] });
    const onFocus = () => consider();
    addEventListener("focus", onFocus);
    document.addEventListener("visibilitychange", onFocus);
    return () => {
      io.disconnect();
      mo.disconnect();
      removeEventListener("focus", onFocus);
      document.removeEventListener("visibilitychange", onFocus);
      clearTimeout(timer);
    };
  }, [scroller.current, enabled]);
}
