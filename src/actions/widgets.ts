// Widgets: documents pushed by a plugin's own bot (the latest kept per widget and scope, events at most
// once every two seconds per scope, the latest winning), and how each user draws each widget.
import type { App } from "../context";
import type { Db } from "../db/client";
import type { Tx } from "../db/tx";
import type { PluginLinkRow, PluginRow, RealmRow, UserRow } from "../db/schema";
import {
  documentOrDataNeeded,
  guestsRefused,
  itemTooLongLimitCharacters,
  missingConditional,
  noSuchLink,
  noSuchPlugin,
  pluginBotsOnly,
  widgetBelongsOrganizationNotLink,
  widgetNotLinksKind,
} from "../domain/errors";
import { widgetDefaults } from "../domain/plugins";
import { isGuest } from "../domain/roles";
import { applyPreference, applyPush, checkDocument, EMPTY_PREFERENCE, toApiWidgetDocument, WIDGET_LIMITS, widgetSpec } from "../domain/widgets";
import { toUsers, type Audience } from "../events/types";
import { Throttle } from "../lib/throttle";
import { findLink, findPlugin, findPluginByBot } from "../store/plugins";
import { listUsers } from "../store/users";
import * as store from "../store/widgets";
import { canSeePlugin } from "../access/plugins";
import { requireHumanMember } from "./secrets";
import { p, t, type Args } from "../domain/params";
import { canSeeScope, channelReaders } from "../access/widgets";
import { preferenceOf } from "../serializers/widgets";

/** The contract's limit: at most one ext_widget event per scope every two seconds. */
export const WIDGET_EVENT_INTERVAL_MS = 2000;

// ---- Who sees a scope ----

/** Who sees a widget's scope: for a link, those who read its channel; else the organization's members (not guests); a draft's widgets, its person. */
async function scopeAudience(db: Db, p: PluginRow, link: PluginLinkRow | undefined): Promise<number[]> {
  if (p.state === "draft") return [p.madeBy ?? p.installedBy].filter((x): x is number => x !== null);
  if (link) return [...(await channelReaders(db, p.realmId, link.streamId))];
  return (await listUsers(db, p.realmId)).filter((u) => u.isActive && !isGuest(u.role)).map((u) => u.id);
}

// ---- Events, at most one per scope per interval ----

const scopeKey = (s: store.WidgetScope) => JSON.stringify([s.installId, s.widget, s.linkId, s.item]);

async function widgetEvent(db: Db, scope: store.WidgetScope): Promise<{ event: Record<string, unknown> & { type: string }; audience: Audience } | null> {
  const doc = await store.findDocument(db, scope);
  const p = await findPlugin(db, scope.installId);
  if (!doc || !p) return null;
  const link = scope.linkId ? await findLink(db, scope.linkId) : undefined;
  if (scope.linkId && !link) return null;
  return { event: { type: "ext_widget", ...toApiWidgetDocument(doc) }, audience: toUsers(await scopeAudience(db, p, link)) };
}

const throttles = new WeakMap<App, Throttle>();
function throttleOf(app: App): Throttle {
  let t = throttles.get(app);
  if (!t) {
    // The trailing event reads the document as it is by then: the latest wins.
    const trailing = async (key: string) => {
      const [installId, widget, linkId, item] = JSON.parse(key) as [number, string, number, string];
      try {
        await app.tx(async (tx) => {
          const e = await widgetEvent(tx.db, { installId, widget, linkId, item });
          if (e) tx.emit(e.event, e.audience);
          tx.afterCommit(() => t!.sent(key));
        });
      } catch (e) {
        app.log.warn("widget event not sent", { install_id: installId, widget, error: String(e) }); // e.g. the server is shutting down
      }
    };
    throttles.set(app, (t = new Throttle(WIDGET_EVENT_INTERVAL_MS, trailing)));
  }
  return t;
}

// ---- Across nodes (PostgreSQL): the throttle's mark is a row every node sees ----

/**
 * A push's event on PostgreSQL: sent when this transaction wins the scope's mark (store/widgets.ts
 * `claimWidgetEvent`); otherwise the trailing event is planned here for the end of the interval, and
 * when it fires it claims the mark the same way, so at most one trailing event goes across the nodes,
 * reading the document as it is by then. SQLite's one server keeps the Throttle in memory.
 */
const trailingTimers = new WeakMap<App, Map<string, ReturnType<typeof setTimeout>>>();

async function sharedWidgetEvent(app: App, tx: Tx, scope: store.WidgetScope, key: string) {
  const claim = await store.claimWidgetEvent(tx.db, key, WIDGET_EVENT_INTERVAL_MS);
  if (claim.won) {
    const e = await widgetEvent(tx.db, scope);
    if (e) tx.emit(e.event, e.audience);
    return;
  }
  let timers = trailingTimers.get(app);
  if (!timers) trailingTimers.set(app, (timers = new Map()));
  if (timers.has(key)) return;
  const fire = async () => {
    timers.delete(key);
    try {
      await app.tx(async (t) => await sharedWidgetEvent(app, t, scope, key));
    } catch (e) {
      app.log.warn("widget event not sent", { install_id: scope.installId, widget: scope.widget, error: String(e) });
    }
  };
  const timer = setTimeout(() => void fire(), claim.waitMs);
  timer.unref?.();
  timers.set(key, timer);
}

// ---- Pushes ----

export const pushWidgetParams = {
  widget: p.str(),
  link_id: p.int().optional(),
  item: p.str().optional(""),
  document: p.json(t.dict(t.any())).optional(),
  data: p.json(t.dict(t.any())).optional(),
};

/**
 * POST /ext/widgets: only a plugin's own bot, for its own widgets and links. Keeps the latest document
 * per widget and scope; `version` counts its changes (a push that changes nothing is not one).
 */
export async function pushWidget(app: App, bot: UserRow, a: Args<typeof pushWidgetParams>) {
  const p = bot.isBot ? await findPluginByBot(app.db, bot.id) : undefined;
  if (!p || p.realmId !== bot.realmId) throw pluginBotsOnly();
  const spec = widgetSpec(p.manifest, a.widget);
  let link: PluginLinkRow | undefined;
  if (spec.scope === "link") {
    if (a.link_id === undefined) throw missingConditional("link_id");
    link = await findLink(app.db, a.link_id);
    if (!link || link.installId !== p.id) throw noSuchLink();
    if (spec.link_kinds && !spec.link_kinds.includes(link.kind)) throw widgetNotLinksKind(a.widget, link.kind);
  } else if (a.link_id !== undefined) throw widgetBelongsOrganizationNotLink(a.widget);
  if ([...a.item].length > WIDGET_LIMITS.item) throw itemTooLongLimitCharacters(WIDGET_LIMITS.item);
  if (a.document === undefined && a.data === undefined) throw documentOrDataNeeded();
  if (a.document) checkDocument(spec, a.widget, a.document);
  const scope: store.WidgetScope = { installId: p.id, widget: a.widget, linkId: link?.id ?? 0, item: a.item };
  const shared = app.config.storage.driver === "postgres";
  const throttle = shared ? null : throttleOf(app);
  const key = scopeKey(scope);
  return await app.tx(async (tx) => {
    const current = await store.findDocument(tx.db, scope);
    const next = checkDocument(spec, a.widget, applyPush(current?.document ?? null, a.document, a.data));
    if (current && JSON.stringify(current.document) === JSON.stringify(next)) return { version: current.version };
    const version = (current?.version ?? 0) + 1;
    await store.saveDocument(tx.db, { ...scope, document: next, version, dateUpdated: app.now() });
    if (!throttle) await sharedWidgetEvent(app, tx, scope, key);
    else if (throttle.take(key)) {
      const e = (await widgetEvent(tx.db, scope))!;
      tx.emit(e.event, e.audience);
      tx.afterCommit(() => throttle.sent(key));
    }
    return { version };
  });
}

// ---- Reading ----

async function visiblePlugin(app: App, realm: RealmRow, user: UserRow, id: number): Promise<PluginRow> {
  const p = await findPlugin(app.db, id);
  if (!p || p.realmId !== realm.id || !canSeePlugin(user, p) || p.dateRemoved !== null) throw noSuchPlugin();
  return p;
}

export const getWidgetParams = { link_id: p.int().optional(), item: p.str().optional("") };

/** GET /ext/widgets/{install_id}/{widget}: the latest document of one scope (null before the first push) and the caller's preference. */
export async function getWidget(app: App, realm: RealmRow, user: UserRow, installId: number, widget: string, a: Args<typeof getWidgetParams>) {
  if (isGuest(user.role)) throw guestsRefused();
  const p = await visiblePlugin(app, realm, user, installId);
  const spec = widgetSpec(p.manifest, widget);
  let link: PluginLinkRow | undefined;
  if (a.link_id !== undefined) {
    link = await findLink(app.db, a.link_id);
    if (!link || link.installId !== p.id || !(await canSeeScope(app.db, user, p, link))) throw noSuchLink();
  } else if (spec.scope === "link") throw missingConditional("link_id");
  const doc = await store.findDocument(app.db, { installId: p.id, widget, linkId: link?.id ?? 0, item: a.item });
  return { document: doc?.document ?? null, version: doc?.version ?? 0, preference: await preferenceOf(app.db, user, p, widget) };
}

// ---- Preferences ----

/** PATCH /ext/widgets/{install_id}/{widget}/preference: for the caller alone; their clients hear of it. */
/** What a person may set of a widget's presentation for themselves (domain/widgets.ts applies it). */
export const preferenceParams = {
  shown: p.bool().optional(),
  position: p.int({ min: 0, max: WIDGET_LIMITS.position }).optional(),
  label: p.str({ max: WIDGET_LIMITS.prefLabel }).optional(),
  filters: p.json(t.dict(t.any())).optional(),
  alerts: p.json(t.dict(t.any())).optional(),
  in_column: p.bool().optional(),
  reset: p.strList().optional(),
  seen: p.bool().optional(),
  rest_figure: p.str().optional(),
};

export async function updateWidgetPreference(app: App, realm: RealmRow, user: UserRow, installId: number, widget: string, a: Args<typeof preferenceParams>) {
  requireHumanMember(user);
  const p = await visiblePlugin(app, realm, user, installId);
  const spec = widgetSpec(p.manifest, widget);
  const row = await store.findPreference(app.db, user.id, p.id, widget);
  const next = applyPreference(spec, widget, row ?? EMPTY_PREFERENCE, a, app.now());
  await app.tx(async (tx) => {
    await store.savePreference(tx.db, { userId: user.id, installId: p.id, widget, ...next });
    tx.emit({ type: "ext_widget_preference", install_id: p.id, widget, preference: await preferenceOf(tx.db, user, p, widget) }, toUsers([user.id]));
  });
  return {};
}
