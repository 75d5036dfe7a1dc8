import type { App } from "../context";
import type { UserRow } from "../db/schema";
import { ApiError, invalidParam } from "../domain/errors";
import { toUsers } from "../events/types";
import * as store from "../store/saved-snippets";
import { toApiSnippet } from "../serializers/saved-snippets";

export const MAX_SNIPPET_TITLE_LENGTH = 60;

const notFound = () => new ApiError("BAD_REQUEST", "Saved snippet does not exist.", 404);

function checkTitle(title: string) {
  const t = title.trim();
  if (!t) throw invalidParam("Title cannot be empty.");
  if ([...t].length > MAX_SNIPPET_TITLE_LENGTH) throw invalidParam(`title is too long (limit: ${MAX_SNIPPET_TITLE_LENGTH} characters)`);
  return t;
}

function checkContent(content: string) {
  if (!content.trim()) throw invalidParam("Content cannot be empty.");
  if (content.includes("\0")) throw invalidParam("Content must not contain null bytes");
  return content;
}

export const listSavedSnippets = (app: App, user: UserRow) => ({ saved_snippets: store.listSnippets(app.db, user.id).map(toApiSnippet) });

export function createSavedSnippet(app: App, user: UserRow, a: { title: string; content: string }) {
  const title = checkTitle(a.title);
  const content = checkContent(a.content);
  return app.tx((tx) => {
    const row = store.insertSnippet(tx.db, { userId: user.id, title, content, dateCreated: app.now() });
    tx.emit({ type: "saved_snippets", op: "add", saved_snippet: toApiSnippet(row) }, toUsers([user.id]));
    return { saved_snippet_id: row.id };
  });
}

export function editSavedSnippet(app: App, user: UserRow, id: number, a: { title?: string; content?: string }) {
  const row = store.findSnippet(app.db, user.id, id);
  if (!row) throw notFound();
  if (a.title === undefined && a.content === undefined) throw invalidParam("No new data supplied");
  const patch = { ...(a.title !== undefined && { title: checkTitle(a.title) }), ...(a.content !== undefined && { content: checkContent(a.content) }) };
  app.tx((tx) => {
    const updated = store.updateSnippet(tx.db, row.id, patch);
    tx.emit({ type: "saved_snippets", op: "update", saved_snippet: toApiSnippet(updated) }, toUsers([user.id]));
  });
  return {};
}

export function deleteSavedSnippet(app: App, user: UserRow, id: number) {
  const row = store.findSnippet(app.db, user.id, id);
  if (!row) throw notFound();
  app.tx((tx) => {
    store.deleteSnippet(tx.db, row.id);
    tx.emit({ type: "saved_snippets", op: "remove", saved_snippet_id: row.id }, toUsers([user.id]));
  });
  return {};
}
