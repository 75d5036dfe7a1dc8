// What the Markdown renderer looks up while rendering one sender's text (actions/render.ts adds the
// realm's emoji and linkifiers): users and groups by name or id, channels by name, a topic's latest message.
import type { Db } from "../db/client";
import { sqliteOnly } from "../db/engine";

type Named = { id: number; full_name: string; is_active: boolean };

/** The renderer's RenderContext lookups (render/context.ts documents each). */
interface Lookups {
  userByName(name: string): Named | null;
  userById(id: number): Named | null;
  groupByName(name: string): { id: number; name: string; deactivated: boolean } | null;
  streamByName(name: string): { id: number; name: string } | null;
  topicLatestMessageId(channelId: number, topic: string): number | null;
}

/** `senderId` null is the system: it sees no private channel. */
export async function renderLookups(db: Db, realmId: number, senderId: number | null): Promise<Lookups> {
  // Synchronous: the renderer asks mid-parse. PostgreSQL needs a first pass that reads the names a text
  // mentions (docs/scaling.md, step 5), as actions/render.ts does for custom emoji.
  const s = sqliteOnly(db, "The renderer's lookups");
  return {
    userByName(name) {
      const rows = s
        .query<{ id: number; full_name: string; is_active: number }, [number, string]>(
          "SELECT id, full_name, is_active FROM users WHERE realm_id = ? AND lower(full_name) = lower(?) LIMIT 2",
        )
        .all(realmId, name);
      // An ambiguous name mentions nobody (the id syntax disambiguates).
      return rows.length === 1 ? { id: rows[0]!.id, full_name: rows[0]!.full_name, is_active: !!rows[0]!.is_active } : null;
    },
    userById(id) {
      const r = s
        .query<{ id: number; full_name: string; is_active: number }, [number, number]>(
          "SELECT id, full_name, is_active FROM users WHERE id = ? AND realm_id = ?",
        )
        .get(id, realmId);
      return r ? { id: r.id, full_name: r.full_name, is_active: !!r.is_active } : null;
    },
    groupByName(name) {
      const r = s
        .query<{ id: number; name: string; deactivated: number }, [number, string]>(
          "SELECT id, name, deactivated FROM user_groups WHERE realm_id = ? AND lower(name) = lower(?) AND is_system_group = false",
        )
        .get(realmId, name);
      return r ? { id: r.id, name: r.name, deactivated: !!r.deactivated } : null;
    },
    streamByName(name) {
      // Links to any channel of the realm that exists; private ones only for their subscribers.
      const r = s
        .query<{ id: number; name: string; invite_only: number }, [number, string]>(
          "SELECT id, name, invite_only FROM channels WHERE realm_id = ? AND name = ? AND is_archived = false",
        )
        .get(realmId, name);
      if (!r) return null;
      if (
        r.invite_only &&
        (senderId === null || !s.query("SELECT 1 FROM subscriptions WHERE user_id = ? AND channel_id = ? AND active = true").get(senderId, r.id))
      )
        return null;
      return { id: r.id, name: r.name };
    },
    topicLatestMessageId(channelId, topic) {
      const r = s
        .query<{ id: number | null }, [number, string]>(
          "SELECT MAX(m.id) AS id FROM channels c JOIN messages m ON m.recipient_id = c.recipient_id AND m.topic = ?2 WHERE c.id = ?1",
        )
        .get(channelId, topic);
      return r?.id ?? null;
    },
  };
}
