// Plugin installs: listing, installing (from plugin-sources.ts), publishing the agent's drafts, and
// changing settings. States live in plugin-states.ts, secret slots and links beside them, removal in
// plugin-removal.ts; the supervisor (runtime/supervisor.ts) runs the processes.
import { renameSync, rmSync } from "node:fs";
import { join } from "node:path";
import type { App } from "../context";
import type { PluginRow, RealmRow, UserRow } from "../db/schema";
import type { Tx } from "../db/tx";
import { BOT_TYPE } from "../domain/bots";
import { guestsRefused, invalidManifestName, invalidManifestRunMissing, pluginAlreadyRemoved, pluginNotDraft } from "../domain/errors";
import { applySettings, applyWidgetDefaults, checkDisabledTools, isDiscardedDraft, removalIsFinal } from "../domain/plugins";
import { realmUrl } from "../domain/realms";
import { isGuest } from "../domain/roles";
import { p, t, type Args } from "../domain/params";
import { checkFullName } from "../domain/users";
import { CONFAB_VERSION } from "../version";
import { randomToken } from "../lib/random";
import * as store from "../store/plugins";
import { findUserByEmail } from "../store/users";
import { insertUserTx } from "./users";
import { botAudience, botEvent } from "../serializers/bots";
import { announcePluginTx, managed, pluginAudience, pluginFor, requireManager } from "./plugin-access";
import { pluginObject } from "../serializers/plugins";
import { pluginHostChanged } from "./plugin-host";
import { pluginDir } from "./plugin-processes";
import { checkRequires, fetchSource, type SourceArgs } from "./plugin-sources";
import { plannedState, replanTx } from "./plugin-states";
import { accessChannelById } from "../access/channels";
import { visiblePluginObjects } from "../serializers/plugins";

/** GET /ext/plugins: the installs the caller may see (not those removed more than a week ago). */
export async function listPlugins(app: App, realm: RealmRow, user: UserRow | null) {
  if (user && isGuest(user.role)) throw guestsRefused();
  return { plugins: await visiblePluginObjects(app, realm, user) };
}

/** GET /ext/plugins/{install_id}. */
export async function getPlugin(app: App, realm: RealmRow, user: UserRow | null, id: number) {
  if (user && isGuest(user.role)) throw guestsRefused();
  return { plugin: await pluginObject(app.db, await pluginFor(app, realm, user, id)) };
}

// ---- Install ----

/** Optional without defaults, so that the CLI and the agent name only what they choose. */
export const installParams = {
  source_kind: p.enum(["codehost", "local", "remote"] as const),
  source: p.str().optional(),
  source_repository_id: p.int().optional(),
  source_path: p.str().optional(),
  sha: p.str().optional(),
  settings: p.json(t.dict(t.any())).optional(),
  disabled: p.bool().optional(),
};

/** What the agent records when it makes a plugin for someone: the install starts as a `draft` only they see. */
export interface DraftOrigin {
  madeBy: UserRow;
  runId: number | null;
  streamId: number | null;
  topic: string | null;
  messageId: number | null;
}

/** The bot's email: <plugin id>-bot@<the realm's host>, numbered when the plugin is installed again. */
async function botEmail(app: App, tx: Tx, realm: RealmRow, pluginId: string): Promise<string> {
  const domain = new URL(realmUrl(app.config.externalUrl, realm.stringId)).hostname;
  for (let n = 1; ; n++) {
    const email = `${pluginId}${n === 1 ? "" : `-${n}`}-bot@${domain}`;
    if (!(await findUserByEmail(tx.db, realm.id, email))) return email;
  }
}

/**
 * POST /ext/plugins: reads and checks the manifest at the pinned commit, creates the plugin's own bot
 * (named after it, owned by the organization), and the install: waiting when something required is
 * missing or it is turned off, else starting. With `draft`, the agent's draft for one person.
 */
export async function installPlugin(app: App, realm: RealmRow, actor: UserRow | null, a: Args<typeof installParams>, draft?: DraftOrigin) {
  await requireManager(app, realm, actor);
  const f = await fetchSource(app, realm, a);
  const m = f.manifest;
  if (a.source_kind !== "remote" && !m.run) throw invalidManifestRunMissing();
  await checkRequires(app, realm, m, CONFAB_VERSION);
  const name = checkFullName(m.name);
  if (!name.ok) throw invalidManifestName(name.msg);
  const settings = applySettings(m, {}, a.settings ?? {});
  // The files at the pinned commit go to a scratch directory first, and into place once the install exists.
  const scratch = join(app.config.dataDir, "plugins", `.new-${randomToken(8)}`);
  if (f.checkout) {
    try {
      await f.checkout(join(scratch, "checkout"));
    } catch (e) {
      rmSync(scratch, { recursive: true, force: true });
      throw e;
    }
  }
  let row: PluginRow;
  try {
    row = await app.tx(async (tx) => {
      const bot = await insertUserTx(
        app,
        tx,
        realm,
        { email: await botEmail(app, tx, realm, m.id), fullName: name.name, isBot: true, botType: BOT_TYPE.generic, botOwnerId: null },
        null,
      );
      tx.emit(await botEvent("add", bot, app.config.externalUrl, tx.db), await botAudience(tx, bot));
      let p = await store.insertPlugin(tx.db, {
        realmId: realm.id,
        plugin: m.id,
        name: m.name,
        version: m.version,
        sourceKind: a.source_kind,
        source: f.source,
        sourceRepositoryId: f.sourceRepositoryId,
        sourcePath: f.sourcePath,
        sha: f.sha,
        manifest: m,
        state: draft ? "draft" : "waiting",
        botUserId: bot.id,
        installedBy: draft ? draft.madeBy.id : (actor?.id ?? null),
        madeBy: draft?.madeBy.id ?? null,
        madeByRunId: draft?.runId ?? null,
        madeInStreamId: draft?.streamId ?? null,
        madeInTopic: draft?.topic ?? null,
        madeInMessageId: draft?.messageId ?? null,
        settings,
        disabled: a.disabled ?? false,
        dateInstalled: app.now(),
      });
      if (!draft) {
        const plan = await plannedState(tx.db, p);
        p = await store.updatePlugin(tx.db, p.id, plan);
      }
      tx.emit({ type: "ext_plugin", op: "add", plugin: await pluginObject(tx.db, p) }, await pluginAudience(tx.db, p));
      return p;
    });
  } catch (e) {
    rmSync(scratch, { recursive: true, force: true });
    throw e;
  }
  if (f.checkout) {
    rmSync(pluginDir(app, row.id), { recursive: true, force: true });
    renameSync(scratch, pluginDir(app, row.id));
  }
  pluginHostChanged(app);
  return { plugin: await pluginObject(app.db, row) };
}

/** The agent's draft becomes an install like any other (waiting or starting): by its person or an administrator. */
export async function publishDraftPlugin(app: App, realm: RealmRow, actor: UserRow | null, id: number) {
  const p = await managed(app, realm, actor, id);
  if (p.state !== "draft") throw pluginNotDraft();
  const row = await app.tx(async (tx) => {
    // Everyone who may see it now learns of it; its person already knew.
    const plan = await plannedState(tx.db, p);
    const next = await store.updatePlugin(tx.db, p.id, plan);
    tx.emit({ type: "ext_plugin", op: "add", plugin: await pluginObject(tx.db, next) }, await pluginAudience(tx.db, next));
    return next;
  });
  pluginHostChanged(app);
  return { plugin: await pluginObject(app.db, row) };
}

// ---- Changes ----

export const pluginPatchParams = {
  settings: p.json(t.dict(t.any())).optional(),
  disabled: p.bool().optional(),
  disabled_tools: p.strList().optional(),
  widget_defaults: p.json(t.dict(t.object({ nav: t.optional(t.str()), column: t.optional(t.bool()) }))).optional(),
};

/** PATCH /ext/plugins/{install_id}: settings (null puts one back to its default), turning off and on, tools the agent may not use, widget defaults. */
export async function updatePlugin(app: App, realm: RealmRow, actor: UserRow | null, id: number, a: Args<typeof pluginPatchParams>) {
  const p = await managed(app, realm, actor, id);
  if (p.state === "removed") throw pluginAlreadyRemoved();
  const patch: Partial<PluginRow> = {};
  if (a.settings !== undefined) {
    patch.settings = applySettings(p.manifest, p.settings, a.settings);
    const form = new Map((p.manifest.provides.settings ?? []).map((s) => [s.key, s]));
    // A channel setting names a channel the person changing it can see.
    for (const [k, v] of Object.entries(a.settings))
      if (form.get(k)?.type === "channel" && v !== null && actor) await accessChannelById(app, actor, v as number);
  }
  if (a.disabled !== undefined) patch.disabled = a.disabled;
  if (a.disabled_tools !== undefined) patch.disabledTools = checkDisabledTools(p.manifest, a.disabled_tools);
  if (a.widget_defaults !== undefined) patch.widgetDefaults = applyWidgetDefaults(p.manifest, p.widgetDefaults, a.widget_defaults);
  const rerun =
    (a.settings !== undefined && JSON.stringify(patch.settings) !== JSON.stringify(p.settings)) || (a.disabled !== undefined && a.disabled !== p.disabled);
  const row = await app.tx(async (tx) => {
    const updated = await store.updatePlugin(tx.db, p.id, patch);
    if (rerun) return await replanTx(tx, updated);
    await announcePluginTx(tx, updated);
    return updated;
  });
  if (rerun) pluginHostChanged(app);
  return { plugin: await pluginObject(app.db, row) };
}
