import type { App } from "../context";
import type { UserRow } from "../db/schema";
import {
  contentCannotBeEmpty,
  contentMustNotContainNull,
  noNewDataSupplied,
  savedSnippetNotFound,
  titleCannotBeEmpty,
  titleTooLongLimitCharacters,
} from "../domain/errors";
import { toUsers } from "../events/types";
import * as store from "../store/saved-snippets";
import { p, type Args } from "../domain/params";

export const MAX_SNIPPET_TITLE_LENGTH = 60;
import { toApiSnippet } from "../serializers/saved-snippets";

function checkTitle(title: string) {
  const t = title.trim();
  if (!t) throw titleCannotBeEmpty();
  if ([...t].length > MAX_SNIPPET_TITLE_LENGTH) throw titleTooLongLimitCharacters(MAX_SNIPPET_TITLE_LENGTH);
  return t;
}

function checkContent(content: string) {
  if (!content.trim()) throw contentCannotBeEmpty();
  if (content.includes("\0")) throw contentMustNotContainNull();
  return content;
}

export const listSavedSnippets = async (app: App, user: UserRow) => ({ saved_snippets: (await store.listSnippets(app.db, user.id)).map(toApiSnippet) });

export const createSavedSnippetParams = { title: p.str(), content: p.str() };

export async function createSavedSnippet(app: App, user: UserRow, a: Args<typeof createSavedSnippetParams>) {
  const title = checkTitle(a.title);
  const content = checkContent(a.content);
  return await app.tx(async (tx) => {
    const row = await store.insertSnippet(tx.db, { userId: user.id, title, content, dateCreated: app.now() });
    tx.emit({ type: "saved_snippets", op: "add", saved_snippet: toApiSnippet(row) }, toUsers([user.id]));
    return { saved_snippet_id: row.id };
  });
}

export const editSavedSnippetParams = { title: p.str().optional(), content: p.str().optional() };

export async function editSavedSnippet(app: App, user: UserRow, id: number, a: Args<typeof editSavedSnippetParams>) {
  const row = await store.findSnippet(app.db, user.id, id);
  if (!row) throw savedSnippetNotFound();
  if (a.title === undefined && a.content === undefined) throw noNewDataSupplied();
  const patch = { ...(a.title !== undefined && { title: checkTitle(a.title) }), ...(a.content !== undefined && { content: checkContent(a.content) }) };
  await app.tx(async (tx) => {
    const updated = await store.updateSnippet(tx.db, row.id, patch);
    tx.emit({ type: "saved_snippets", op: "update", saved_snippet: toApiSnippet(updated) }, toUsers([user.id]));
  });
  return {};
}

export async function deleteSavedSnippet(app: App, user: UserRow, id: number) {
  const row = await store.findSnippet(app.db, user.id, id);
  if (!row) throw savedSnippetNotFound();
  await app.tx(async (tx) => {
    await store.deleteSnippet(tx.db, row.id);
    tx.emit({ type: "saved_snippets", op: "remove", saved_snippet_id: row.id }, toUsers([user.id]));
  });
  return {};
}
