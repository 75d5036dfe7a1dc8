// Markdown rendering with the realm's data: the renderer is pure, and this module answers its lookups
// (users, groups, channels, linkifiers) from the database for one sender.
import type { App } from "../context";
import { realmEmojiByName } from "./realm-emoji";
import type { RealmRow, UserRow } from "../db/schema";
import { messageMustNotBeEmpty } from "../domain/errors";
import { realmUrl } from "../domain/realms";
import { renderMarkdown, type Linkifier, type RenderContext, type Rendered } from "../render";
import { listLinkifiers } from "../store/linkifiers";
import { renderLookups, type RenderLookups } from "../store/render-lookups";

/** Every `:name:` that the renderer's emoji rule (render/emoji.ts) may meet, overlapping ones included. */
const COLON_NAMES_RE = /(?=:([\p{L}\p{N}_+-]+):)/gu;

/**
 * The lookups a render of `content` needs, written by `sender` (null: the system). The renderer asks
 * for custom emoji mid-parse, synchronously, so the names the text can name are read before it runs.
 */
async function renderContext(
  app: App,
  realm: RealmRow,
  sender: UserRow | null,
  content: string,
): Promise<RenderContext & Pick<RenderLookups, "missed" | "readMissed">> {
  const emoji = new Map<string, Awaited<ReturnType<typeof realmEmojiByName>>>();
  for (const [, name] of content.matchAll(COLON_NAMES_RE)) if (!emoji.has(name!)) emoji.set(name!, await realmEmojiByName(app, realm.id, name!));
  return {
    ...(await renderLookups(app.db, realm.id, sender?.id ?? null)),
    realmUrl: realmUrl(app.config.externalUrl, realm.stringId),
    realmEmoji: (name) => emoji.get(name) ?? null,
    linkifiers: await realmLinkifiers(app, realm),
  };
}

/** The realm's linkifiers as the renderer takes them (for message text and topic links alike), memoized:
 * actions/linkifiers.ts forgets them on every change. */
export const realmLinkifiers = async (app: App, realm: RealmRow): Promise<readonly Linkifier[]> =>
  await app.reads.memo(`linkifiers:${realm.id}`, async () =>
    (await listLinkifiers(app.db, realm.id)).map((l) => ({ pattern: l.pattern, url_template: l.urlTemplate })),
  );
export const forgetLinkifiers = (app: App, realmId: number) => app.reads.forget(`linkifiers:${realmId}`);

export async function renderFor(app: App, realm: RealmRow, sender: UserRow | null, content: string): Promise<Rendered> {
  const ctx = await renderContext(app, realm, sender, content);
  let rendered = renderMarkdown(content, ctx);
  // On PostgreSQL the lookups answer from what was read (store/render-lookups.ts): a render that asked
  // for more reads it and renders again. On SQLite nothing is ever missed.
  while (ctx.missed()) {
    await ctx.readMissed();
    rendered = renderMarkdown(content, ctx);
  }
  return rendered;
}

/** HTML of a description or other system text. */
export const renderPlain = async (app: App, realm: RealmRow, content: string): Promise<string> =>
  content ? (await renderFor(app, realm, null, content)).html : "";

/** POST /messages/render. */
export async function renderPreview(app: App, realm: RealmRow, user: UserRow, content: string) {
  if (!content.trim()) throw messageMustNotBeEmpty();
  return { rendered: (await renderFor(app, realm, user, content)).html };
}
