// Inbox: every unread conversation, grouped by channel then topic, DMs first.
import { api } from "../api/client";
import { sayError } from "../ui/toast";
import { channelHref, dmHref, topicHref } from "../store/router";
import { isMutedTopic, subs, unread, unreadCounts, userName } from "../store/state";

export function Inbox() {
  const counts = unreadCounts.value;
  const byChannel = new Map<number, Map<string, { n: number; mentioned: boolean }>>();
  for (const e of unread.value.values()) {
    if (e.streamId === undefined) continue;
    const topics = byChannel.get(e.streamId) ?? new Map();
    const t = topics.get(e.topic!) ?? { n: 0, mentioned: false };
    t.n++;
    t.mentioned ||= e.mentioned;
    topics.set(e.topic!, t);
    byChannel.set(e.streamId, topics);
  }
  const channels = [...byChannel.keys()]
    .map((id) => subs.value.get(id))
    .filter((s) => s && !s.is_muted)
    .sort((a, b) => Number(b!.pin_to_top) - Number(a!.pin_to_top) || a!.name.localeCompare(b!.name));
  const dms = [...counts.dm.entries()];
  const empty = !dms.length && !channels.length;
  return (
    <section class="page inbox" aria-labelledby="inbox-title" data-testid="inbox">
      <div class="page-head">
        <h1 id="inbox-title">Inbox</h1>
        {!empty && (
          <button class="btn small" onClick={() => confirm("Mark all messages as read?") && api.post("mark_all_as_read").catch(sayError)}>
            Mark all as read
          </button>
        )}
      </div>
      {empty && <p class="empty-page">You have no unread messages. 🎉</p>}
      {dms.length > 0 && (
        <div class="inbox-group">
          <h2 class="inbox-group-head">Direct messages</h2>
          <ul>
            {dms.map(([key, n]) => (
              <li key={key}>
                <a class="inbox-row" href={dmHref(key.split(",").map(Number))}>
                  <span class="grow">{key.split(",").map(Number).map(userName).join(", ")}</span>
                  <span class="unread-count">{n}</span>
                </a>
              </li>
            ))}
          </ul>
        </div>
      )}
      {channels.map((s) => {
        const topics = [...byChannel.get(s!.stream_id)!].filter(([t]) => !isMutedTopic(s!.stream_id, t));
        if (!topics.length) return null;
        return (
          <div class="inbox-group" key={s!.stream_id}>
            <h2 class="inbox-group-head" style={{ borderLeftColor: s!.color }}>
              <a href={channelHref(s!.stream_id)}>#{s!.name}</a>
              <span class="unread-count">{counts.channel.get(s!.stream_id)}</span>
            </h2>
            <ul>
              {topics.map(([topic, t]) => (
                <li key={topic}>
                  <a class="inbox-row" href={topicHref(s!.stream_id, topic)}>
                    <span class="grow">{topic || <em>general chat</em>}</span>
                    {t.mentioned && (
                      <span class="mention-mark" aria-label="You were mentioned">
                        @
                      </span>
                    )}
                    <span class="unread-count">{t.n}</span>
                  </a>
                </li>
              ))}
            </ul>
          </div>
        );
      })}
    </section>
  );
}
