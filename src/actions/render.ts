// Markdown rendering with the realm's data: the renderer is pure, and this module answers its lookups
// (users, groups, channels, linkifiers) from the database for one sender.
import type { App } from "../context";
import { realmEmojiByName } from "./realm-emoji";
import type { RealmRow, UserRow } from "../db/schema";
import { messageMustNotBeEmpty } from "../domain/errors";
import { realmUrl } from "../domain/realms";
import { renderMarkdown, type Linkifier, type RenderContext, type Rendered } from "../render";
import { listLinkifiers } from "../store/linkifiers";
import { renderLookups } from "../store/render-lookups";

/** The lookups a render needs, for messages and descriptions written by `sender` (null: the system). */
export function renderContext(app: App, realm: RealmRow, sender: UserRow | null): RenderContext {
  return {
    ...renderLookups(app.db, realm.id, sender?.id ?? null),
    realmUrl: realmUrl(app.config.externalUrl, realm.stringId),
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
  if (!content.trim()) throw messageMustNotBeEmpty();
  return { rendered: renderFor(app, realm, user, content).html };
}
