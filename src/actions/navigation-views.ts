import type { App } from "../context";
import type { NavigationViewRow, UserRow } from "../db/schema";
import {
  builtViewsCannotHaveCustom,
  customViewsMustHaveValid,
  fragmentCannotBeBlank,
  nameCannotBeBlank,
  nameTooLongLimitCharacters,
  navigationViewAlreadyExists,
  navigationViewDoesNotExist,
  navigationViewNotFound,
  noNewDataSupplied,
} from "../domain/errors";
import { toUsers } from "../events/types";
import * as store from "../store/navigation-views";
import { p, type Args } from "../domain/params";
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

async function checkName(app: App, user: UserRow, fragment: string, name: string | undefined, current?: NavigationViewRow): Promise<string | null> {
  if (isBuiltIn(fragment)) {
    if (name !== undefined) throw builtViewsCannotHaveCustom();
    return null;
  }
  if (name === undefined) {
    if (current) return current.name;
    throw customViewsMustHaveValid();
  }
  const n = name.trim();
  if (!n) throw nameCannotBeBlank();
  if ([...n].length > MAX_VIEW_NAME_LENGTH) throw nameTooLongLimitCharacters(MAX_VIEW_NAME_LENGTH);
  const other = await store.findViewByName(app.db, user.id, n);
  if (other && other.id !== current?.id) throw navigationViewAlreadyExists();
  return n;
}

export const listNavigationViews = async (app: App, user: UserRow) => ({ navigation_views: (await store.listViews(app.db, user.id)).map(toApiView) });

export const addNavigationViewParams = { fragment: p.str(), is_pinned: p.bool(), name: p.str().optional() };

export async function addNavigationView(app: App, user: UserRow, a: Args<typeof addNavigationViewParams>) {
  const fragment = a.fragment.trim();
  if (!fragment) throw fragmentCannotBeBlank();
  if (await store.findView(app.db, user.id, fragment)) throw navigationViewAlreadyExists();
  const name = await checkName(app, user, fragment, a.name);
  await app.tx(async (tx) => {
    const row = await store.insertView(tx.db, { userId: user.id, fragment, isPinned: a.is_pinned, name });
    tx.emit({ type: "navigation_view", op: "add", navigation_view: toApiView(row) }, toUsers([user.id]));
  });
  return {};
}

export const editNavigationViewParams = { is_pinned: p.bool().optional(), name: p.str().optional() };

export async function editNavigationView(app: App, user: UserRow, fragment: string, a: Args<typeof editNavigationViewParams>) {
  const row = await store.findView(app.db, user.id, fragment);
  if (!row) throw navigationViewNotFound();
  if (a.is_pinned === undefined && a.name === undefined) throw noNewDataSupplied();
  const name = await checkName(app, user, fragment, a.name, row);
  const data: Record<string, unknown> = {};
  if (a.is_pinned !== undefined && a.is_pinned !== row.isPinned) data.is_pinned = a.is_pinned;
  if (name !== row.name) data.name = name;
  if (!Object.keys(data).length) return {};
  await app.tx(async (tx) => {
    await store.updateView(tx.db, row.id, { isPinned: a.is_pinned ?? row.isPinned, name });
    tx.emit({ type: "navigation_view", op: "update", fragment, data }, toUsers([user.id]));
  });
  return {};
}

export async function removeNavigationView(app: App, user: UserRow, fragment: string) {
  const row = await store.findView(app.db, user.id, fragment);
  if (!row) throw navigationViewDoesNotExist();
  await app.tx(async (tx) => {
    await store.deleteView(tx.db, row.id);
    tx.emit({ type: "navigation_view", op: "remove", fragment }, toUsers([user.id]));
  });
  return {};
}
