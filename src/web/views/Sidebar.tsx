// The left sidebar: views, channels (pinned first, muted dimmed, in their colors) with unread counts,
// the open channel's topics, and DM conversations.
import { useSignal } from "@preact/signals";
import { useEffect } from "preact/hooks";
import { api } from "../api/client";
import { PresenceDot } from "../ui/Avatar";
import { Icon } from "../ui/icons";
import { sayError } from "../ui/toast";
import { term } from "../store/narrow";
import { channelHref, dmHref, drawerOpen, topicHref, view } from "../store/router";
import type { Message } from "../api/types";
import { drafts, isMutedTopic, me, messageHooks, recentDms, subs, unread, unreadCounts, userName, users } from "../store/state";
import { openChannelBrowser } from "./ChannelBrowser";
import { WidgetNav } from "./ext/WidgetNav";

function Count({ n, label }: { n: number; label?: string }) {
  if (!n) return null;
  return (
    <span class="unread-count" data-testid="unread-count" aria-label={`${n} unread${label ? ` ${label}` : ""}`}>
      {n}
    </span>
  );
}

const ACTIVE_VIEWS = [
  { href: "#inbox", label: "Inbox", icon: "inbox" },
  { href: "#recent", label: "Recent conversations", icon: "clock" },
  { href: "#feed", label: "Combined feed", icon: "feed" },
  { href: "#narrow/is/starred", label: "Starred messages", icon: "star" },
  { href: "#narrow/is/mentioned", label: "Mentions", icon: "at" },
  { href: "#drafts", label: "Drafts", icon: "pencil" },
] as const;

export function Sidebar() {
  const v = view.value;
  const here = location.hash || "#feed";
  const counts = unreadCounts.value;
  const openChannel = v.kind === "messages" ? (term(v.terms, "channel") as number | undefined) : undefined;
  const openTopic = v.kind === "messages" ? (term(v.terms, "topic") as string | undefined) : undefined;
  const channels = [...subs.value.values()]
    .filter((s) => !s.is_archived)
    .sort((a, b) => Number(b.pin_to_top) - Number(a.pin_to_top) || Number(a.is_muted) - Number(b.is_muted) || a.name.localeCompare(b.name));
  const firstUnpinned = channels.findIndex((c) => !c.pin_to_top);
  const mine = me.value.user_id;
  return (
    <nav class={`sidebar${drawerOpen.value ? " open" : ""}`} aria-label="Channels and conversations" data-testid="sidebar">
      <ul class="nav-list">
        {ACTIVE_VIEWS.map((a) => (
          <li key={a.href}>
            <a href={a.href} class={`nav-item${here === a.href ? " active" : ""}`} aria-current={here === a.href ? "page" : undefined}>
              <span class="nav-icon">
                <Icon name={a.icon} />
              </span>
              <span class="nav-label">{a.label}</span>
              {a.href === "#inbox" && <Count n={counts.total} />}
              {a.href === "#narrow/is/mentioned" && <Count n={counts.mentions} label="mentions" />}
              {a.href === "#drafts" && drafts.value.size > 0 && <span class="muted-count">{drafts.value.size}</span>}
            </a>
          </li>
        ))}
      </ul>
      <WidgetNav />
      <div class="sidebar-section">
        <h2 class="sidebar-heading">
          <span>Channels</span>
          <button
            class="icon-btn small"
            aria-label="Browse and create channels"
            title="Browse and create channels"
            data-testid="browse-channels"
            onClick={openChannelBrowser}
          >
            <Icon name="plus" size={14} />
          </button>
        </h2>
        <ul class="nav-list">
          {channels.map((c, i) => (
            <li key={c.stream_id} class={i === firstUnpinned && firstUnpinned > 0 ? "after-pinned" : undefined}>
              <a
                href={channelHref(c.stream_id)}
                class={`nav-item channel${c.is_muted ? " muted" : ""}${openChannel === c.stream_id && !openTopic ? " active" : ""}`}
                data-testid={`channel-${c.name}`}
                aria-current={openChannel === c.stream_id && !openTopic ? "page" : undefined}
              >
                <span class="channel-mark" style={{ color: c.color }}>
                  <Icon name={c.invite_only ? "lock" : "hash"} size={15} />
                </span>
                <span class="nav-label">{c.name}</span>
                {c.pin_to_top && <span class="sr-only">(pinned)</span>}
                {c.is_muted && <span class="sr-only">(muted)</span>}
                <Count n={counts.channel.get(c.stream_id) ?? 0} />
              </a>
              {openChannel === c.stream_id && <Topics streamId={c.stream_id} open={openTopic} />}
            </li>
          ))}
        </ul>
      </div>
      <div class="sidebar-section">
        <h2 class="sidebar-heading">
          <span>Direct messages</span>
          <a
            class="icon-btn small"
            aria-label="New direct message"
            title="New direct message"
            href="#compose-dm"
            onClick={(e) => (e.preventDefault(), document.dispatchEvent(new CustomEvent("compose", { detail: { dm: true } })))}
          >
            <Icon name="plus" size={14} />
          </a>
        </h2>
        <ul class="nav-list">
          {recentDms.value.slice(0, 30).map((c) => {
            const ids = c.user_ids.length ? c.user_ids : [mine];
            const key = ids.join(",");
            const names = c.user_ids.length ? c.user_ids.map(userName).join(", ") : `${userName(mine)} (you)`;
            const active = v.kind === "messages" && JSON.stringify(term(v.terms, "dm")) === JSON.stringify(ids);
            return (
              <li key={key}>
                <a href={dmHref(ids)} class={`nav-item${active ? " active" : ""}`} data-testid={`dm-${key}`} aria-current={active ? "page" : undefined}>
                  {ids.length === 1 ? (
                    <PresenceDot id={ids[0]!} />
                  ) : (
                    <span class="group-mark" aria-hidden="true">
                      {ids.length}
                    </span>
                  )}
                  <span class="nav-label">{names}</span>
                  <Count n={counts.dm.get(key) ?? 0} />
                </a>
              </li>
            );
          })}
          {recentDms.value.length === 0 && <li class="empty-note">No conversations yet</li>}
        </ul>
        <UserList />
      </div>
    </nav>
  );
}

/** The open channel's topics: the newest first, with unread counts; muted topics dimmed. */
function Topics({ streamId, open }: { streamId: number; open?: string }) {
  const topics = useSignal<{ name: string; max_id: number }[] | null>(null);
  const all = useSignal(false);
  const counts = unreadCounts.value;
  const unreadList = unread.value;
  useEffect(() => {
    let gone = false;
    const load = () =>
      api
        .get("users/me/" + streamId + "/topics", { allow_empty_topic_name: true })
        .then((r) => void (!gone && (topics.value = r.topics)))
        .catch(sayError);
    void load();
    // Deleted messages may have emptied a topic: the server's list says which remain.
    const onRemoved = (_ids: number[], sid?: number) => void (sid === streamId && load());
    messageHooks.removed.push(onRemoved);
    // A message in a topic the list lacks (a new topic, or one moved here) puts it on top.
    const onMessage = (m: Message) => {
      if (m.type === "stream" && m.stream_id === streamId && topics.value && !topics.value.some((t) => t.name === m.subject))
        topics.value = [{ name: m.subject, max_id: m.id }, ...topics.value];
    };
    messageHooks.added.push(onMessage);
    return () => {
      gone = true;
      messageHooks.added.splice(messageHooks.added.indexOf(onMessage), 1);
      messageHooks.removed.splice(messageHooks.removed.indexOf(onRemoved), 1);
    };
  }, [streamId]);
  // Topics with unread messages the server list may not have yet (just arrived) come first.
  const names = new Map<string, number>();
  for (const t of topics.value ?? []) names.set(t.name, t.max_id);
  for (const [id, e] of unreadList) if (e.streamId === streamId && !names.has(e.topic!)) names.set(e.topic!, id);
  const list = [...names].sort((a, b) => b[1] - a[1]).map(([n]) => n);
  const shown = all.value ? list : list.filter((n, i) => i < 8 || (counts.topic.get(`${streamId}:${n.toLowerCase()}`) ?? 0) > 0 || n === open);
  return (
    <ul class="topic-list" aria-label="Topics">
      {shown.map((name) => (
        <li key={name}>
          <a
            href={topicHref(streamId, name)}
            class={`nav-item topic${isMutedTopic(streamId, name) ? " muted" : ""}${name === open ? " active" : ""}`}
            data-testid={`topic-${name}`}
            aria-current={name === open ? "page" : undefined}
          >
            <span class="nav-label">{name || <em>general chat</em>}</span>
            <Count n={counts.topic.get(`${streamId}:${name.toLowerCase()}`) ?? 0} />
          </a>
        </li>
      ))}
      {topics.value && list.length > shown.length && (
        <li>
          <button class="link-btn more-topics" onClick={() => (all.value = true)}>
            Show all {list.length} topics
          </button>
        </li>
      )}
      {topics.value && list.length === 0 && <li class="empty-note">No topics yet</li>}
    </ul>
  );
}

/** People, active first: a click opens the DM conversation. */
function UserList() {
  const filter = useSignal("");
  const open = useSignal(false);
  if (!open.value)
    return (
      <button class="link-btn people-toggle" onClick={() => (open.value = true)}>
        Show people ({[...users.value.values()].filter((u) => u.is_active && !u.is_bot).length})
      </button>
    );
  const q = filter.value.toLowerCase();
  const list = [...users.value.values()]
    .filter((u) => u.is_active && !u.is_bot && u.full_name.toLowerCase().includes(q))
    .sort((a, b) => a.full_name.localeCompare(b.full_name));
  return (
    <div class="people">
      <input
        class="people-filter"
        placeholder="Filter people"
        aria-label="Filter people"
        value={filter.value}
        onInput={(e) => (filter.value = e.currentTarget.value)}
      />
      <ul class="nav-list">
        {list.slice(0, 200).map((u) => (
          <li key={u.user_id}>
            <a class="nav-item" href={dmHref([u.user_id])} data-testid={`person-${u.email}`}>
              <PresenceDot id={u.user_id} />
              <span class="nav-label">{u.full_name}</span>
            </a>
          </li>
        ))}
      </ul>
    </div>
  );
}
