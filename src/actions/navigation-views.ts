import type { App } from "../context";
import type { NavigationViewRow, UserRow } from "../db/schema";
import { ApiError, invalidParam } from "../domain/errors";
import { toUsers } from "../events/types";
import * as store from "../store/navigation-views";
import { toApiView } from "../serializers/navigation-views";

/** Views every client has; they may be pinned but not renamed. */
export const BUILT_IN_VIEWS = [
  "inbox",
  "recent",
  "feed",
  "drafts",
  "scheduled",
  "reminders",
  "narrow/is/alerted",
  "narrow/is/mentioned",
  "narrow/is/starred",
  "narrow/has/reaction/sender/me",
] as const;
const isBuiltIn = (fragment: string) => (BUILT_IN_VIEWS as readonly string[]).includes(fragment);
export const MAX_VIEW_NAME_LENGTH = 100;

function checkName(app: App, user: UserRow, fragment: string, name: string | undefined, current?: NavigationViewRow): string | null {
  if (isBuiltIn(fragment)) {
    if (name !== undefined) throw invalidParam("Built-in views cannot have a custom name");
    return null;
  }
  if (name === undefined) {
    if (current) return current.name;
    throw invalidParam("Custom views must have a valid name");
  }
  const n = name.trim();
  if (!n) throw invalidParam("name cannot be blank");
  if ([...n].length > MAX_VIEW_NAME_LENGTH) throw invalidParam(`name is too long (limit: ${MAX_VIEW_NAME_LENGTH} characters)`);
  const other = store.findViewByName(app.db, user.id, n);
  if (other && other.id !== current?.id) throw invalidParam("Navigation view already exists.");
  return n;
}

export const listNavigationViews = (app: App, user: UserRow) => ({ navigation_views: store.listViews(app.db, user.id).map(toApiView) });

export function addNavigationView(app: App, user: UserRow, a: { fragment: string; is_pinned: boolean; name?: string }) {
  const fragment = a.fragment.trim();
  if (!fragment) throw invalidParam("fragment cannot be blank");
  if (store.findView(app.db, user.id, fragment)) throw invalidParam("Navigation view already exists.");
  const name = checkName(app, user, fragment, a.name);
  app.tx((tx) => {
    const row = store.insertView(tx.db, { userId: user.id, fragment, isPinned: a.is_pinned, name });
    tx.emit({ type: "navigation_view", op: "add", navigation_view: toApiView(row) }, toUsers([user.id]));
  });
  return {};
}

export function editNavigationView(app: App, user: UserRow, fragment: string, a: { is_pinned?: boolean; name?: string }) {
  const row = store.findView(app.db, user.id, fragment);
  if (!row) throw new ApiError("NOT_FOUND", "Navigation view does not exist.", 404);
  if (a.is_pinned === undefined && a.name === undefined) throw invalidParam("No new data supplied");
  const name = checkName(app, user, fragment, a.name, row);
  const data: Record<string, unknown> = {};
  if (a.is_pinned !== undefined && a.is_pinned !== row.isPinned) data.is_pinned = a.is_pinned;
  if (name !== row.name) data.name = name;
  if (!Object.keys(data).length) return {};
  app.tx((tx) => {
    store.updateView(tx.db, row.id, { isPinned: a.is_pinned ?? row.isPinned, name });
    tx.emit({ type: "navigation_view", op: "update", fragment, data }, toUsers([user.id]));
  });
  return {};
}

export function removeNavigationView(app: App, user: UserRow, fragment: string) {
  const row = store.findView(app.db, user.id, fragment);
  if (!row) throw new ApiError("BAD_REQUEST", "Navigation view does not exist.", 404);
  app.tx((tx) => {
    store.deleteView(tx.db, row.id);
    tx.emit({ type: "navigation_view", op: "remove", fragment }, toUsers([user.id]));
  });
  return {};
}
