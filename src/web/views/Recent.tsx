// Recent conversations: the latest topics and DMs, newest first, from the latest messages one can see.
import { useSignal } from "@preact/signals";
import { useEffect } from "preact/hooks";
import type { Message } from "../api/types";
import { ago } from "../ui/format";
import { listFor } from "../store/lists";
import { dmOperand, dmPeers } from "../store/narrow";
import { dmHref, topicHref } from "../store/router";
import { me, messages, subs, unreadCounts, userName } from "../store/state";

export function Recent() {
  const list = listFor([]);
  const filter = useSignal("");
  useEffect(() => void list.start(), [list]);
  const convs = new Map<string, { last: Message; senders: Set<number> }>();
  const ids = list.ids.value;
  for (let i = ids.length - 1; i >= 0; i--) {
    const m = messages.get(ids[i]!)?.value;
    if (!m) continue;
    const key = m.type === "stream" ? `s${m.stream_id}:${m.subject.toLowerCase()}` : `d${dmPeers(m, me.value.user_id).join(",")}`;
    const c = convs.get(key);
    if (c) c.senders.add(m.sender_id);
    else convs.set(key, { last: m, senders: new Set([m.sender_id]) });
  }
  const counts = unreadCounts.value;
  const q = filter.value.toLowerCase();
  const rows = [...convs.values()].filter(
    ({ last: m }) =>
      !q ||
      (m.type === "stream" ? `${subs.value.get(m.stream_id!)?.name} ${m.subject}` : dmPeers(m, me.value.user_id).map(userName).join(" "))
        .toLowerCase()
        .includes(q),
  );
  return (
    <section class="page recent" aria-labelledby="recent-title" data-testid="recent">
      <div class="page-head">
        <h1 id="recent-title">Recent conversations</h1>
        <input placeholder="Filter" aria-label="Filter conversations" value={filter.value} onInput={(e) => (filter.value = e.currentTarget.value)} />
      </div>
      <table class="recent-table">
        <thead>
          <tr>
            <th scope="col">Conversation</th>
            <th scope="col">Participants</th>
            <th scope="col">Unread</th>
            <th scope="col">Last message</th>
          </tr>
        </thead>
        <tbody>
          {rows.map(({ last: m, senders }) => {
            const peers = dmOperand(dmPeers(m, me.value.user_id), me.value.user_id);
            const s = m.type === "stream" ? subs.value.get(m.stream_id!) : undefined;
            const n = m.type === "stream" ? counts.topic.get(`${m.stream_id}:${m.subject.toLowerCase()}`) : counts.dm.get(peers.join(","));
            return (
              <tr key={m.id}>
                <td>
                  {m.type === "stream" ? (
                    <a href={topicHref(m.stream_id!, m.subject)}>
                      <span style={{ color: s?.color }}>#{s?.name}</span> › {m.subject || <em>general chat</em>}
                    </a>
                  ) : (
                    <a href={dmHref(peers)}>{peers.map(userName).join(", ")}</a>
                  )}
                </td>
                <td class="participants">{[...senders].slice(0, 4).map(userName).join(", ")}</td>
                <td>{n ? <span class="unread-count">{n}</span> : ""}</td>
                <td class="when">{ago(m.timestamp)}</td>
              </tr>
            );
          })}
        </tbody>
      </table>
      {!list.loading.value && !rows.length && <p class="empty-page">No conversations yet.</p>}
      {!list.foundOldest.value && ids.length > 0 && (
        <button class="btn" onClick={() => list.older()}>
          Load older conversations
        </button>
      )}
    </section>
  );
}
