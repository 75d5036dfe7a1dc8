// The one store: register's initial state, then every event applied here (applyEvent). Views read
// these signals and never patch them after an action: they wait for the event, so tabs always agree.
import { batch, computed, signal, type Signal } from "@preact/signals";
import type { Draft, Message, Stream, Subscription, User, UserGroup } from "../api/types";
import { applyAdminEvent, applyAdminInitial } from "./admin";
import { dmOperand, dmPeers } from "./narrow";
import { applyExtEvent, applyExtInitial } from "./ext";

export interface UnreadEntry {
  streamId?: number;
  topic?: string;
  /** For DMs: the conversation's `dm` operand, comma-joined. */
  dm?: string;
  mentioned: boolean;
}

export interface Presence {
  active_timestamp: number;
  idle_timestamp: number;
}

/** A status as Zulip sends it: only the parts that are set. */
export interface UserStatus {
  status_text?: string;
  emoji_name?: string;
  emoji_code?: string;
  reaction_type?: string;
  away?: boolean;
}

export const me = signal<User>({} as User);
export const realm = signal<Record<string, any>>({});
export const settings = signal<Record<string, any>>({});
export const users = signal(new Map<number, User>());
export const subs = signal(new Map<number, Subscription>());
export const streams = signal(new Map<number, Stream>());
export const unread = signal(new Map<number, UnreadEntry>());
export const drafts = signal(new Map<number, Draft>());
/** `${stream_id}:${topic lowercased}` → visibility_policy (1 muted, 2 unmuted, 3 followed). */
export const userTopics = signal(new Map<string, number>());
export const mutedUsers = signal(new Set<number>());
export const presence = signal(new Map<number, Presence>());
/** Users with a status set, from register's `user_status` and then its events. */
export const userStatus = signal(new Map<number, UserStatus>());
export const serverTimeOffset = signal(0);
export const userGroups = signal(new Map<number, UserGroup>());
export const realmEmoji = signal<Record<string, { id: string; name: string; source_url: string; deactivated: boolean }>>({});
/** Who is typing where: key (see typingKey) → user ids. */
export const typing = signal(new Map<string, number[]>());
export const connection = signal<"ok" | "reconnecting">("ok");
export const recentDms = signal<{ user_ids: number[]; max_message_id: number }[]>([]);

/** Every message the app holds, one signal each so a change re-renders that message alone. */
export const messages = new Map<number, Signal<Message>>();
/** Listeners for message-level changes (message lists extend themselves, notifications). */
export const messageHooks = {
  added: [] as ((m: Message, localId?: string) => void)[],
  /** Deleted messages; `streamId` names their channel when the event does. */
  removed: [] as ((ids: number[], streamId?: number) => void)[],
  reset: [] as (() => void)[],
};

export const typingKey = (m: { type: string; stream_id?: number; topic?: string; dm?: number[] }) =>
  m.type === "stream" ? `s:${m.stream_id}:${(m.topic ?? "").toLowerCase()}` : `d:${m.dm!.join(",")}`;
export const topicKey = (streamId: number, topic: string) => `${streamId}:${topic.toLowerCase()}`;

export const userName = (id: number) => users.value.get(id)?.full_name ?? "Unknown user";
export const isMutedTopic = (streamId: number, topic: string) => userTopics.value.get(topicKey(streamId, topic)) === 1;
export const isMutedChannel = (id: number) => subs.value.get(id)?.is_muted ?? false;

export function unreadEntryOf(m: Message): UnreadEntry {
  const mentioned = m.flags.some(
    (f) => f === "mentioned" || f === "wildcard_mentioned" || f === "stream_wildcard_mentioned" || f === "topic_wildcard_mentioned",
  );
  if (m.type === "stream") return { streamId: m.stream_id, topic: m.subject, mentioned };
  return { dm: dmOperand(dmPeers(m, me.value.user_id), me.value.user_id).join(","), mentioned };
}

/** Unread counts: per channel, per topic, per DM conversation, mentions, and the total for the title. */
export const unreadCounts = computed(() => {
  const channel = new Map<number, number>();
  const topic = new Map<string, number>();
  const dm = new Map<string, number>();
  let mentions = 0;
  let total = 0;
  for (const e of unread.value.values()) {
    if (e.mentioned) mentions++;
    if (e.dm !== undefined) {
      dm.set(e.dm, (dm.get(e.dm) ?? 0) + 1);
      total++;
      continue;
    }
    const tk = topicKey(e.streamId!, e.topic!);
    topic.set(tk, (topic.get(tk) ?? 0) + 1);
    const topicMuted = userTopics.value.get(tk) === 1;
    const chMuted = subs.value.get(e.streamId!)?.is_muted ?? false;
    if (topicMuted || (chMuted && userTopics.value.get(tk) === undefined)) continue;
    channel.set(e.streamId!, (channel.get(e.streamId!) ?? 0) + 1);
    total++;
  }
  return { channel, topic, dm, mentions, total };
});

export function setMessage(m: Message) {
  const s = messages.get(m.id);
  // A refetch of unchanged messages (after a reconnect or the boot-time prefetch) re-renders nothing.
  if (s) s.value = sameMessage(s.value, m) ? s.value : m;
  else messages.set(m.id, signal(m));
}

const sameMessage = (a: Message, b: Message) => a === b || JSON.stringify(a) === JSON.stringify(b);

function patchMessage(id: number, f: (m: Message) => Message) {
  const s = messages.get(id);
  if (s) s.value = f(s.value);
}

const mapOf = <K, V>(list: V[], key: (v: V) => K) => new Map(list.map((v) => [key(v), v]));
const edit = <K, V>(s: Signal<Map<K, V>>, f: (m: Map<K, V>) => void) => {
  const copy = new Map(s.value);
  f(copy);
  s.value = copy;
};

export function applyInitial(r: any) {
  batch(() => {
    const mine = r.user_id as number;
    const all: User[] = [...(r.realm_users ?? []), ...(r.realm_non_active_users ?? []), ...(r.cross_realm_bots ?? [])];
    users.value = mapOf(all, (u) => u.user_id);
    me.value = users.value.get(mine) ?? ({ user_id: mine, email: r.email, full_name: r.full_name } as User);
    const realmKeys: Record<string, any> = {};
    for (const [k, v] of Object.entries(r)) if (k.startsWith("realm_") || k.startsWith("max_") || k.startsWith("server_")) realmKeys[k] = v;
    realm.value = realmKeys;
    settings.value = r.user_settings ?? {};
    subs.value = mapOf<number, Subscription>(r.subscriptions ?? [], (s) => s.stream_id);
    streams.value = mapOf<number, Stream>(r.streams ?? [], (s) => s.stream_id);
    drafts.value = mapOf<number, Draft>(r.drafts ?? [], (d) => d.id);
    userTopics.value = new Map((r.user_topics ?? []).map((t: any) => [topicKey(t.stream_id, t.topic_name), t.visibility_policy]));
    mutedUsers.value = new Set((r.muted_users ?? []).map((u: any) => u.id));
    presence.value = new Map(Object.entries(r.presences ?? {}).map(([k, v]) => [Number(k), v as Presence]));
    userStatus.value = new Map(Object.entries(r.user_status ?? {}).map(([k, v]) => [Number(k), v as UserStatus]));
    serverTimeOffset.value = (r.server_timestamp ?? Date.now() / 1000) - Date.now() / 1000;
    userGroups.value = mapOf<number, UserGroup>(r.realm_user_groups ?? [], (g) => g.id);
    realmEmoji.value = r.realm_emoji ?? {};
    recentDms.value = r.recent_private_conversations ?? [];
    const u = new Map<number, UnreadEntry>();
    const um = r.unread_msgs ?? {};
    const mentions = new Set<number>(um.mentions ?? []);
    for (const s of um.streams ?? []) for (const id of s.unread_message_ids) u.set(id, { streamId: s.stream_id, topic: s.topic, mentioned: mentions.has(id) });
    for (const p of um.pms ?? [])
      for (const id of p.unread_message_ids) u.set(id, { dm: String(p.other_user_id === mine ? mine : p.other_user_id), mentioned: mentions.has(id) });
    for (const h of um.huddles ?? []) {
      const ids = h.user_ids_string
        .split(",")
        .map(Number)
        .filter((x: number) => x !== mine);
      for (const id of h.unread_message_ids) u.set(id, { dm: ids.join(","), mentioned: mentions.has(id) });
    }
    unread.value = u;
    applyExtInitial(r);
    applyAdminInitial(r);
  });
}

const STATUS_PARTS = ["status_text", "emoji_name", "emoji_code", "reaction_type", "away"] as const;

const MENTION_FLAGS = ["mentioned", "wildcard_mentioned", "stream_wildcard_mentioned", "topic_wildcard_mentioned"];

export function applyEvent(e: any) {
  applyAdminEvent(e);
  switch (e.type) {
    case "message": {
      const m: Message = { ...e.message, flags: e.flags ?? [], reactions: e.message.reactions ?? [] };
      setMessage(m);
      if (!m.flags.includes("read")) edit(unread, (u) => u.set(m.id, unreadEntryOf(m)));
      if (m.type === "private") {
        const peers = dmPeers(m, me.value.user_id);
        recentDms.value = [{ user_ids: peers, max_message_id: m.id }, ...recentDms.value.filter((c) => c.user_ids.join(",") !== peers.join(","))];
      }
      for (const f of messageHooks.added) f(m, e.local_message_id);
      break;
    }
    case "update_message": {
      const ids: number[] = e.message_ids ?? [e.message_id];
      const moved = e.new_stream_id !== undefined || e.subject !== undefined || e.topic !== undefined;
      const newTopic: string | undefined = e.subject ?? e.topic;
      for (const id of ids) {
        patchMessage(id, (m) => {
          const n: Message = { ...m };
          if (id === e.message_id && e.rendered_content !== undefined) {
            n.content = e.rendered_content;
            n.last_edit_timestamp = e.edit_timestamp;
          }
          if (newTopic !== undefined) n.subject = newTopic;
          if (e.new_stream_id !== undefined) {
            n.stream_id = e.new_stream_id;
            n.display_recipient = subs.value.get(e.new_stream_id)?.name ?? streams.value.get(e.new_stream_id)?.name ?? "";
          }
          if (moved && !e.rendered_content) n.last_moved_timestamp = e.edit_timestamp;
          if (e.flags) n.flags = e.flags;
          return n;
        });
      }
      if (moved)
        edit(unread, (u) => {
          for (const id of ids) {
            const x = u.get(id);
            if (x && x.streamId !== undefined) u.set(id, { ...x, streamId: e.new_stream_id ?? x.streamId, topic: newTopic ?? x.topic });
          }
        });
      if (moved) for (const f of messageHooks.reset) f();
      break;
    }
    case "delete_message": {
      const ids: number[] = e.message_ids ?? [e.message_id];
      edit(unread, (u) => ids.forEach((id) => u.delete(id)));
      for (const f of messageHooks.removed) f(ids, e.stream_id);
      for (const id of ids) messages.delete(id);
      break;
    }
    case "reaction": {
      const r = { emoji_name: e.emoji_name, emoji_code: e.emoji_code, reaction_type: e.reaction_type, user_id: e.user_id };
      patchMessage(e.message_id, (m) => ({
        ...m,
        reactions:
          e.op === "add"
            ? [...m.reactions, r]
            : m.reactions.filter((x) => !(x.user_id === r.user_id && x.emoji_code === r.emoji_code && x.reaction_type === r.reaction_type)),
      }));
      break;
    }
    case "update_message_flags": {
      const ids: number[] = e.all ? [...unread.value.keys()] : e.messages;
      const flag: string = e.flag;
      for (const id of ids) patchMessage(id, (m) => ({ ...m, flags: e.op === "add" ? [...new Set([...m.flags, flag])] : m.flags.filter((f) => f !== flag) }));
      if (flag === "read")
        edit(unread, (u) => {
          if (e.op === "add") for (const id of ids) u.delete(id);
          else
            for (const id of ids) {
              const d = e.message_details?.[id];
              const known = messages.get(id)?.value;
              if (known) u.set(id, unreadEntryOf({ ...known, flags: known.flags.filter((f) => f !== "read") }));
              else if (d?.type === "stream") u.set(id, { streamId: d.stream_id, topic: d.topic, mentioned: !!d.mentioned });
              else if (d)
                u.set(id, {
                  dm: (d.user_ids?.length ? d.user_ids : [me.value.user_id]).sort((a: number, b: number) => a - b).join(","),
                  mentioned: !!d.mentioned,
                });
            }
        });
      if (MENTION_FLAGS.includes(flag) || flag === "starred") for (const f of messageHooks.reset) f();
      break;
    }
    case "subscription":
      if (e.op === "add") edit(subs, (s) => e.subscriptions.forEach((x: Subscription) => s.set(x.stream_id, x)));
      else if (e.op === "remove") edit(subs, (s) => e.subscriptions.forEach((x: { stream_id: number }) => s.delete(x.stream_id)));
      else if (e.op === "update")
        edit(subs, (s) => {
          const x = s.get(e.stream_id);
          if (x) s.set(e.stream_id, { ...x, [e.property === "in_home_view" ? "is_muted" : e.property]: e.property === "in_home_view" ? !e.value : e.value });
        });
      else if (e.op === "peer_add" || e.op === "peer_remove")
        edit(subs, (s) => {
          for (const id of e.stream_ids) {
            const x = s.get(id);
            if (!x?.subscribers) continue;
            const set = new Set(x.subscribers);
            for (const u of e.user_ids) e.op === "peer_add" ? set.add(u) : set.delete(u);
            s.set(id, { ...x, subscribers: [...set] });
          }
        });
      break;
    case "stream":
      if (e.op === "create") edit(streams, (s) => e.streams.forEach((x: Stream) => s.set(x.stream_id, x)));
      else if (e.op === "delete")
        batch(() => {
          edit(streams, (s) => e.streams.forEach((x: Stream) => s.delete(x.stream_id ?? (x as any).id)));
          edit(subs, (s) => e.streams.forEach((x: Stream) => s.delete(x.stream_id ?? (x as any).id)));
        });
      else if (e.op === "update") {
        const patch = (m: Map<number, any>) => {
          const x = m.get(e.stream_id);
          if (x) m.set(e.stream_id, { ...x, [e.property]: e.value, ...(e.rendered_description ? { rendered_description: e.rendered_description } : {}) });
        };
        batch(() => {
          edit(streams, patch);
          edit(subs, patch);
        });
      }
      break;
    case "realm_user":
      if (e.op === "add") edit(users, (u) => u.set(e.person.user_id, e.person));
      else if (e.op === "remove") edit(users, (u) => u.set(e.person.user_id, { ...u.get(e.person.user_id)!, is_active: false }));
      else if (e.op === "update")
        edit(users, (u) => {
          const x = u.get(e.person.user_id);
          if (x) u.set(x.user_id, { ...x, ...e.person });
          if (x?.user_id === me.value.user_id) me.value = u.get(x.user_id)!;
        });
      break;
    case "user_settings":
      if (e.op === "update") settings.value = { ...settings.value, [e.property]: e.value };
      break;
    case "drafts":
      if (e.op === "add" || e.op === "update") edit(drafts, (d) => (e.drafts ?? [e.draft]).forEach((x: Draft) => d.set(x.id, x)));
      else if (e.op === "remove") edit(drafts, (d) => d.delete(e.draft_id));
      break;
    case "user_topic":
      edit(userTopics, (t) => t.set(topicKey(e.stream_id, e.topic_name), e.visibility_policy));
      break;
    case "muted_users":
      mutedUsers.value = new Set(e.muted_users.map((u: any) => u.id));
      break;
    case "presence": {
      const upd: Record<string, Presence> = e.presences ?? (e.user_id ? { [e.user_id]: modernPresence(e.presence) } : {});
      edit(presence, (p) => Object.entries(upd).forEach(([id, v]) => p.set(Number(id), v)));
      break;
    }
    case "user_status": {
      // The event carries only what changed; an empty text or emoji name, or away false, clears that part.
      edit(userStatus, (m) => {
        const next: Record<string, unknown> = { ...m.get(e.user_id) };
        for (const k of STATUS_PARTS) if (k in e) next[k] = e[k];
        for (const k of STATUS_PARTS) if (next[k] === "" || next[k] === false) delete next[k];
        if (Object.keys(next).length) m.set(e.user_id, next as UserStatus);
        else m.delete(e.user_id);
      });
      break;
    }
    case "typing": {
      const key =
        e.message_type === "stream"
          ? typingKey({ type: "stream", stream_id: e.stream_id, topic: e.topic })
          : typingKey({
              type: "private",
              dm: dmOperand(
                e.recipients
                  .map((r: any) => r.user_id)
                  .filter((id: number) => id !== me.value.user_id)
                  .sort((a: number, b: number) => a - b),
                me.value.user_id,
              ),
            });
      const who: number = e.sender.user_id;
      if (who === me.value.user_id) break;
      edit(typing, (t) => {
        const now = (t.get(key) ?? []).filter((id) => id !== who);
        if (e.op === "start") now.push(who);
        if (now.length) t.set(key, now);
        else t.delete(key);
      });
      if (e.op === "start") scheduleTypingExpiry(key, who);
      break;
    }
    case "realm":
      if (e.op === "update") realm.value = { ...realm.value, [`realm_${e.property}`]: e.value };
      else if (e.op === "update_dict") {
        const next = { ...realm.value };
        for (const [k, v] of Object.entries(e.data)) next[`realm_${k}`] = v;
        realm.value = next;
      }
      break;
    case "realm_emoji":
      if (e.op === "update") realmEmoji.value = e.realm_emoji;
      // individual_emoji_changes: one emoji per event, under `emoji`.
      else if (e.op === "add" || e.op === "edit") realmEmoji.value = { ...realmEmoji.value, [e.emoji.id]: e.emoji };
      break;
    case "user_group":
      if (e.op === "add") edit(userGroups, (g) => g.set(e.group.id, e.group));
      else if (e.op === "remove") edit(userGroups, (g) => g.delete(e.group_id));
      else if (e.op === "update") edit(userGroups, (g) => g.has(e.group_id) && g.set(e.group_id, { ...g.get(e.group_id)!, ...e.data }));
      else if (e.op === "add_members" || e.op === "remove_members")
        edit(userGroups, (g) => {
          const x = g.get(e.group_id);
          if (!x) return;
          const set = new Set(x.members);
          for (const u of e.user_ids) e.op === "add_members" ? set.add(u) : set.delete(u);
          g.set(x.id, { ...x, members: [...set] });
        });
      else if (e.op === "add_subgroups" || e.op === "remove_subgroups")
        edit(userGroups, (g) => {
          const x = g.get(e.group_id);
          if (!x) return;
          const set = new Set(x.direct_subgroup_ids ?? []);
          for (const id of e.direct_subgroup_ids) e.op === "add_subgroups" ? set.add(id) : set.delete(id);
          g.set(x.id, { ...x, direct_subgroup_ids: [...set] });
        });
      break;
    default:
      if (e.type.startsWith("ext_")) applyExtEvent(e);
  }
}

function modernPresence(p: Record<string, { status: string; timestamp: number }>): Presence {
  let active = 0;
  let idle = 0;
  for (const v of Object.values(p ?? {})) {
    if (v.status === "active") active = Math.max(active, v.timestamp);
    idle = Math.max(idle, v.timestamp);
  }
  return { active_timestamp: active, idle_timestamp: idle };
}

// Zulip's clients drop a typist after 15 s without news (the server's stop may never come).
const typingTimers = new Map<string, ReturnType<typeof setTimeout>>();
function scheduleTypingExpiry(key: string, who: number) {
  const k = `${key}|${who}`;
  clearTimeout(typingTimers.get(k));
  typingTimers.set(
    k,
    setTimeout(() => applyEvent({ type: "typing", op: "stop", synthetic: true, sender: { user_id: who }, ...parseTypingKey(key) }), 15_000),
  );
}
function parseTypingKey(key: string) {
  if (key.startsWith("s:")) {
    const [, id, ...topic] = key.split(":");
    return { message_type: "stream", stream_id: Number(id), topic: topic.join(":") };
  }
  return {
    message_type: "direct",
    recipients: key
      .slice(2)
      .split(",")
      .map((id) => ({ user_id: Number(id) })),
  };
}

/** "active" within 2 minutes, "idle" within 14 days of activity, else offline. */
export function presenceOf(id: number): "active" | "idle" | "offline" {
  const p = presence.value.get(id);
  if (!p) return "offline";
  const now = Date.now() / 1000 + serverTimeOffset.value;
  if (now - p.active_timestamp < 140) return "active";
  if (now - Math.max(p.idle_timestamp, p.active_timestamp) < 140) return "idle";
  return "offline";
}
