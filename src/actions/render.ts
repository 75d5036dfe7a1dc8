// Markdown rendering with the realm's data: the renderer is pure, and this module answers its lookups
// (users, groups, channels, linkifiers) from the database for one sender.
import type { App } from "../context";
import { realmEmojiByName } from "./realm-emoji";
import type { RealmRow, UserRow } from "../db/schema";
import { invalidParam } from "../domain/errors";
import { realmUrl } from "../domain/realms";
import { renderMarkdown, type Linkifier, type RenderContext, type Rendered } from "../render";
import { listLinkifiers } from "../store/linkifiers";

/** The lookups a render needs, for messages and descriptions written by `sender` (null: the system). */
export function renderContext(app: App, realm: RealmRow, sender: UserRow | null): RenderContext {
  const s = app.sqlite;
  return {
    realmUrl: realmUrl(app.config.externalUrl, realm.stringId),
    userByName(name) {
      const rows = s
        .query<{ id: number; full_name: string; is_active: number }, [number, string]>(
          "SELECT id, full_name, is_active FROM users WHERE realm_id = ? AND lower(full_name) = lower(?) LIMIT 2",
        )
        .all(realm.id, name);
      // An ambiguous name mentions nobody (the id syntax disambiguates).
      return rows.length === 1 ? { id: rows[0]!.id, full_name: rows[0]!.full_name, is_active: !!rows[0]!.is_active } : null;
    },
    userById(id) {
      const r = s.query<{ id: number; full_name: string; is_active: number }, [number, number]>(
        "SELECT id, full_name, is_active FROM users WHERE id = ? AND realm_id = ?",
      ).get(id, realm.id);
      return r ? { id: r.id, full_name: r.full_name, is_active: !!r.is_active } : null;
    },
    groupByName(name) {
      const r = s
        .query<{ id: number; name: string; deactivated: number }, [number, string]>(
          "SELECT id, name, deactivated FROM user_groups WHERE realm_id = ? AND lower(name) = lower(?) AND is_system_group = 0",
        )
        .get(realm.id, name);
      return r ? { id: r.id, name: r.name, deactivated: !!r.deactivated } : null;
    },
    streamByName(name) {
      // Links to any channel of the realm that exists; private ones only for their subscribers.
      const r = s
        .query<{ id: number; name: string; invite_only: number }, [number, string]>(
          "SELECT id, name, invite_only FROM channels WHERE realm_id = ? AND name = ? AND is_archived = 0",
        )
        .get(realm.id, name);
      if (!r) return null;
      if (r.invite_only && (!sender || !s.query("SELECT 1 FROM subscriptions WHERE user_id = ? AND channel_id = ? AND active = 1").get(sender.id, r.id)))
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
    realmEmoji: (name) => realmEmojiByName(app, realm.id, name),
    linkifiers: realmLinkifiers(app, realm),
  };
}

/** The realm's linkifiers as the renderer takes them (for message text and topic links alike), memoized:
 * actions/linkifiers.ts forgets them on every change. */
export const realmLinkifiers = (app: App, realm: RealmRow): readonly Linkifier[] =>
  app.reads.memo(`linkifiers:${realm.id}`, () => listLinkifiers(app.db, realm.id).map((l) => ({ pattern: l.pattern, url_template: l.urlTemplate })));
export const forgetLinkifiers = (app: App, realmId: number) => app.reads.forget(`linkifiers:${realmId}`);

export const renderFor = (app: App, realm: RealmRow, sender: UserRow | null, content: string): Rendered =>
  renderMarkdown(content, renderContext(app, realm, sender));

/** HTML of a description or other system text. */
export const renderPlain = (app: App, realm: RealmRow, content: string): string => (content ? renderFor(app, realm, null, content).html : "");

/** POST /messages/render. */
export function renderPreview(app: App, realm: RealmRow, user: UserRow, content: string) {
  if (!content.trim()) throw invalidParam("Message must not be empty");
  return { rendered: renderFor(app, realm, user, content).html };
}
