// What the Markdown renderer looks up while rendering one sender's text (actions/render.ts adds the
// realm's emoji and linkifiers): users and groups by name or id, channels by name, a topic's latest message.
import { sqliteOf, type Db } from "../db/client";
import { engineOf } from "../db/engine";
import { raw } from "../db/raw";

type Named = { id: number; full_name: string; is_active: boolean };
type Group = { id: number; name: string; deactivated: boolean };
type Channel = { id: number; name: string };

/** The renderer's RenderContext lookups (render/context.ts documents each), which it asks mid-parse, synchronously. */
interface Lookups {
  userByName(name: string): Named | null;
  userById(id: number): Named | null;
  groupByName(name: string): Group | null;
  streamByName(name: string): Channel | null;
  topicLatestMessageId(channelId: number, topic: string): number | null;
}

/** Lookups that answer from what was read, and what a render asked for that was not. */
export interface RenderLookups extends Lookups {
  /** Whether the last render asked for something not read yet (answered as unknown meanwhile). */
  missed(): boolean;
  /** Reads what was missed: render again afterwards. */
  readMissed(): Promise<void>;
}

const USER_BY_NAME = "SELECT id, full_name, is_active FROM users WHERE realm_id = ? AND lower(full_name) = lower(?) LIMIT 2";
const USER_BY_ID = "SELECT id, full_name, is_active FROM users WHERE id = ? AND realm_id = ?";
const GROUP_BY_NAME = "SELECT id, name, deactivated FROM user_groups WHERE realm_id = ? AND lower(name) = lower(?) AND is_system_group = false";
const CHANNEL_BY_NAME = "SELECT id, name, invite_only FROM channels WHERE realm_id = ? AND name = ? AND is_archived = false";
const SUBSCRIBED = "SELECT 1 FROM subscriptions WHERE user_id = ? AND channel_id = ? AND active = true";
const TOPIC_LATEST = "SELECT MAX(m.id) AS id FROM channels c JOIN messages m ON m.recipient_id = c.recipient_id AND m.topic = ?2 WHERE c.id = ?1";

type UserRow = { id: number; full_name: string; is_active: number };
type ChannelRow = { id: number; name: string; invite_only: number };
type GroupRow = { id: number; name: string; deactivated: number };

// An ambiguous name mentions nobody (the id syntax disambiguates).
const onlyUser = (rows: UserRow[]): Named | null => (rows.length === 1 ? named(rows[0]!) : null);
const named = (r: UserRow | null): Named | null => (r ? { id: r.id, full_name: r.full_name, is_active: !!r.is_active } : null);
const group = (r: GroupRow | null): Group | null => (r ? { id: r.id, name: r.name, deactivated: !!r.deactivated } : null);
// Links to any channel of the realm that exists; private ones only for their subscribers.
const linkable = (r: ChannelRow | null, subscribed: (channelId: number) => boolean): Channel | null =>
  r && (!r.invite_only || subscribed(r.id)) ? { id: r.id, name: r.name } : null;

/** `senderId` null is the system: it sees no private channel. */
export async function renderLookups(db: Db, realmId: number, senderId: number | null): Promise<RenderLookups> {
  return engineOf(db) === "postgres" ? readAhead(db, realmId, senderId) : direct(db, realmId, senderId);
}

/** SQLite: each lookup is a cached statement, answered at once; nothing is ever missed. */
function direct(db: Db, realmId: number, senderId: number | null): RenderLookups {
  const s = sqliteOf(db);
  return {
    userByName: (name) => onlyUser(s.query<UserRow, [number, string]>(USER_BY_NAME).all(realmId, name)),
    userById: (id) => named(s.query<UserRow, [number, number]>(USER_BY_ID).get(id, realmId)),
    groupByName: (name) => group(s.query<GroupRow, [number, string]>(GROUP_BY_NAME).get(realmId, name)),
    streamByName: (name) =>
      linkable(s.query<ChannelRow, [number, string]>(CHANNEL_BY_NAME).get(realmId, name), (id) => senderId !== null && !!s.query(SUBSCRIBED).get(senderId, id)),
    topicLatestMessageId: (channelId, topic) => s.query<{ id: number | null }, [number, string]>(TOPIC_LATEST).get(channelId, topic)?.id ?? null,
    missed: () => false,
    readMissed: async () => {},
  };
}

/**
 * PostgreSQL: a statement is a round trip, which the renderer cannot wait for. A lookup answers from
 * what was read; what was not is noted and answered as unknown, and the caller reads it and renders
 * again (a topic link's latest message needs its channel first: three renders at most).
 */
function readAhead(db: Db, realmId: number, senderId: number | null): RenderLookups {
  const users = new Map<string, Named | null>();
  const usersById = new Map<number, Named | null>();
  const groups = new Map<string, Group | null>();
  const channels = new Map<string, Channel | null>();
  const topics = new Map<string, number | null>();
  const missing: (() => Promise<void>)[] = [];
  const known = <K, V>(map: Map<K, V>, key: K, read: () => Promise<V>): V | null => {
    if (map.has(key)) return map.get(key)!;
    map.set(key, null as V); // asked once per render pass
    missing.push(async () => void map.set(key, await read()));
    return null;
  };
  const r = raw(db);
  return {
    userByName: (name) => known(users, name.toLowerCase(), async () => onlyUser(await r.all<UserRow>(USER_BY_NAME, realmId, name))),
    userById: (id) => known(usersById, id, async () => named(await r.get<UserRow>(USER_BY_ID, id, realmId))),
    groupByName: (name) => known(groups, name.toLowerCase(), async () => group(await r.get<GroupRow>(GROUP_BY_NAME, realmId, name))),
    streamByName: (name) =>
      known(channels, name, async () => {
        const row = await r.get<ChannelRow>(CHANNEL_BY_NAME, realmId, name);
        const subscribed = !!row?.invite_only && senderId !== null && !!(await r.get(SUBSCRIBED, senderId, row.id));
        return linkable(row, () => subscribed);
      }),
    topicLatestMessageId: (channelId, topic) =>
      known(topics, `${channelId}\n${topic.toLowerCase()}`, async () => (await r.get<{ id: number | null }>(TOPIC_LATEST, channelId, topic))?.id ?? null),
    missed: () => missing.length > 0,
    async readMissed() {
      await Promise.all(missing.splice(0).map((read) => read()));
    },
  };
}
