// Plugin installs: install from a source, settings, secret slots, links, turning off, removal and
// restore, and the one place a plugin's state changes (setPluginState). The plugin host
// (runtime/supervisor.ts) runs the processes; it is told of changes through attachPluginHost.
import type Ajv from "ajv";
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, statSync } from "node:fs";
import { join } from "node:path";
import type { App } from "../app";
import type { Db } from "../db/client";
import type { PluginRow, RealmRow, UserRow } from "../db/schema";
import type { Tx } from "../db/tx";
import { BOT_TYPE } from "../domain/bots";
import {
  guestsRefused,
  invalidChannelId,
  invalidParam,
  missingConditional,
  mustBeAdmin,
  noSuchLink,
  noSuchPlugin,
  pluginAlreadyRemoved,
  pluginNotRemoved,
  removalFinal,
} from "../domain/errors";
import { checkManifest, type Manifest } from "../domain/plugin-manifest";
import {
  applySettings,
  applyWidgetDefaults,
  canMove,
  checkDisabledTools,
  DISABLED_DETAIL,
  effectiveSettings,
  missingDetail,
  missingRequirements,
  isDiscardedDraft,
  removalIsFinal,
  toApiLink,
  toApiPlugin,
  type PluginState,
} from "../domain/plugins";
import { realmUrl } from "../domain/realms";
import { isGuest } from "../domain/roles";
import { checkSecretValue, secretHint } from "../domain/secrets";
import { checkFullName } from "../domain/users";
import { toUsers, type Audience } from "../events/types";
import { CONFAB_VERSION } from "../version";
import { randomToken } from "../lib/random";
import * as gitOps from "../runtime/git";
import * as store from "../store/plugins";
import { findChannel } from "../store/channels";
import { hasRealmPermission } from "../store/permissions";
import { findRealmById } from "../store/realms";
import { listSecrets } from "../store/secrets";
import { deleteDocumentsOfLink, deleteWidgetsOfInstall, listDocuments } from "../store/widgets";
import { findUserByEmail, findUserById, listUsers } from "../store/users";
import { accessChannelById } from "./channels";
import { findRealmRepository, MANIFEST_FILE, repositoryDir } from "./repositories";
import { requireHumanMember, runSecretEnv, sealValue, type SealedSlot } from "./secrets";
import { deactivateUser, insertUserTx, reactivateUserTx } from "./users";
import { botAudience, botEvent } from "./bots";

// ---- The plugin host's hooks ----

export interface PluginHost {
  /** Something about some install changed: look again. */
  changed(): void;
  /** A bot made an authenticated API call (a plugin's process "answers" with its first one). */
  botCalled(botUserId: number): void;
}

const hosts = new WeakMap<App, PluginHost>();
export const attachPluginHost = (app: App, host: PluginHost) => hosts.set(app, host);
export const detachPluginHost = (app: App) => hosts.delete(app);
const hostChanged = (app: App) => hosts.get(app)?.changed();

/** Called on every authenticated API request (actions/auth.ts): a map lookup for bots, nothing for people. */
export function noteBotCall(app: App, user: UserRow) {
  if (user.isBot) hosts.get(app)?.botCalled(user.id);
}

// ---- Files ----

/** Where an install's files live: its checkout and the output its process wrote. */
export const pluginDir = (app: App, id: number) => join(app.config.dataDir, "plugins", String(id));
export const pluginCheckout = (app: App, p: PluginRow) => join(pluginDir(app, p.id), "checkout", p.sourcePath);
export const pluginOutputFile = (app: App, id: number) => join(pluginDir(app, id), "output.log");
/** Where a process that provides tools listens for tool calls (HTTP over a Unix socket). */
export const pluginToolsSocket = (app: App, id: number) => join(pluginDir(app, id), "tools.sock");

// ---- Who sees and manages ----

const isDraftOwner = (user: UserRow, p: PluginRow) => p.state === "draft" && (p.madeBy ?? p.installedBy) === user.id;

/** Drafts are seen by the person they are made for; other installs by every member (not guests). */
export const canSeePlugin = (user: UserRow, p: PluginRow) => (p.state === "draft" ? isDraftOwner(user, p) : !isGuest(user.role));

/** Who hears of an install: the draft's person, or the organization's active members and bots (not guests). */
export function pluginAudience(db: Db, p: PluginRow): Audience {
  if (p.state === "draft") return toUsers([p.madeBy ?? p.installedBy].filter((x): x is number => x !== null));
  return toUsers(listUsers(db, p.realmId).filter((u) => u.isActive && !isGuest(u.role)).map((u) => u.id));
}

/**
 * `actor` null is the server's operator (CLI, runtime). Installing and managing plugins takes a human
 * member of the realm's can_manage_plugins_group (administrators by default), or the person a draft is
 * made for.
 */
function requireManager(app: App, realm: RealmRow, actor: UserRow | null, p?: PluginRow) {
  if (!actor) return;
  requireHumanMember(actor);
  if (!hasRealmPermission(app.db, realm, actor, "can_manage_plugins_group") && !(p && isDraftOwner(actor, p))) throw mustBeAdmin();
}

/** An install of the realm the user may see; a removal older than a week is gone. */
function pluginFor(app: App, realm: RealmRow, user: UserRow | null, id: number, o: { final?: boolean } = {}): PluginRow {
  const p = store.findPlugin(app.db, id);
  if (!p || p.realmId !== realm.id || (user && !canSeePlugin(user, p)) || isDiscardedDraft(p)) throw noSuchPlugin();
  if (!o.final && removalIsFinal(p, app.now())) throw noSuchPlugin();
  return p;
}

function managed(app: App, realm: RealmRow, actor: UserRow | null, id: number): PluginRow {
  if (actor) requireHumanMember(actor);
  const p = pluginFor(app, realm, actor, id);
  requireManager(app, realm, actor, p);
  return p;
}

// ---- The plugin object ----

export function pluginObjects(db: Db, rows: PluginRow[]) {
  const ids = rows.map((r) => r.id);
  const slots = store.listSlots(db, ids);
  const links = store.listLinks(db, ids);
  return rows.map((p) => toApiPlugin(p, slots.filter((s) => s.installId === p.id), links.filter((l) => l.installId === p.id)));
}

export const pluginObject = (db: Db, p: PluginRow) => pluginObjects(db, [p])[0]!;

function announce(tx: Tx, p: PluginRow) {
  tx.emit({ type: "ext_plugin", op: "update", plugin: pluginObject(tx.db, p) }, pluginAudience(tx.db, p));
}

/** GET /ext/plugins: the installs the caller may see (not those removed more than a week ago). */
export function listPlugins(app: App, realm: RealmRow, user: UserRow | null) {
  if (user && isGuest(user.role)) throw guestsRefused();
  const now = app.now();
  const rows = store.listPlugins(app.db, realm.id).filter((p) => !removalIsFinal(p, now) && !isDiscardedDraft(p) && (!user || canSeePlugin(user, p)));
  return { plugins: pluginObjects(app.db, rows) };
}

/** GET /ext/plugins/{install_id}. */
export function getPlugin(app: App, realm: RealmRow, user: UserRow | null, id: number) {
  if (user && isGuest(user.role)) throw guestsRefused();
  return { plugin: pluginObject(app.db, pluginFor(app, realm, user, id)) };
}

// ---- State ----

/** The one way a state changes: checked against the table, stored, and announced. */
export function setPluginStateTx(tx: Tx, p: PluginRow, state: PluginState, detail = ""): PluginRow {
  if (p.state === state && p.detail === detail) return p;
  if (!canMove(p.state as PluginState, state)) throw new Error(`plugin ${p.id}: no move from ${p.state} to ${state}`);
  const row = store.updatePlugin(tx.db, p.id, { state, detail });
  announce(tx, row);
  return row;
}

/** setPluginStateTx for the host: reads the install afresh, and does nothing once it was removed or moved on. */
export function setPluginState(app: App, id: number, state: PluginState, detail = "", o: { from?: readonly PluginState[] } = {}): PluginRow | null {
  return app.tx((tx) => {
    const p = store.findPlugin(tx.db, id);
    if (!p || (o.from && !o.from.includes(p.state as PluginState)) || !canMove(p.state as PluginState, state)) return null;
    return setPluginStateTx(tx, p, state, detail);
  });
}

/** Where an install should be: waiting (turned off, or something missing) or starting. */
function plannedState(db: Db, p: PluginRow): { state: PluginState; detail: string } {
  if (p.disabled) return { state: "waiting", detail: DISABLED_DETAIL };
  const slots = new Set(store.listSlots(db, [p.id]).map((s) => s.name));
  const orgSecrets = new Set(listSecrets(db, p.realmId).map((s) => s.name));
  const missing = missingRequirements(p.manifest, p.settings, slots, orgSecrets);
  return missing.length ? { state: "waiting", detail: missingDetail(missing) } : { state: "starting", detail: "" };
}

/** After a change to what the process is given: a new revision (the host restarts a live process), and the planned state. */
function replanTx(tx: Tx, p: PluginRow): PluginRow {
  const row = store.updatePlugin(tx.db, p.id, { revision: p.revision + 1 });
  if (row.state === "draft" || row.state === "removed") {
    announce(tx, row);
    return row;
  }
  // A running process is restarted with what changed, so it is starting again until it answers.
  const plan = plannedState(tx.db, row);
  const next = setPluginStateTx(tx, row, plan.state, plan.detail);
  if (next === row) announce(tx, row);
  return next;
}

/**
 * The host's look at waiting installs: one whose missing organization secret was added since moves to
 * starting (and one that lost it to waiting on its next start). Returns whether anything moved.
 */
export function reviewWaitingPlugin(app: App, p: PluginRow): boolean {
  if (p.state !== "waiting") return false;
  const plan = plannedState(app.db, p);
  if (plan.state === p.state && plan.detail === p.detail) return false; // read-only: most looks change nothing
  return app.tx((tx) => {
    const now = store.findPlugin(tx.db, p.id);
    if (!now || now.state !== "waiting") return false;
    setPluginStateTx(tx, now, plan.state, plan.detail);
    return true;
  });
}

/** Before each start: still everything there? If not, the install waits (and is not started). */
export function confirmStartable(app: App, id: number): boolean {
  return app.tx((tx) => {
    const p = store.findPlugin(tx.db, id);
    if (!p) return false;
    const plan = plannedState(tx.db, p);
    if (plan.state === "starting") return true;
    if (canMove(p.state as PluginState, plan.state)) setPluginStateTx(tx, p, plan.state, plan.detail);
    return false;
  });
}

// ---- Install ----

export interface InstallArgs {
  source_kind: "codehost" | "local" | "remote";
  source?: string;
  source_repository_id?: number;
  source_path?: string;
  sha?: string;
  settings?: Record<string, unknown>;
  disabled?: boolean;
}

/** What the agent records when it makes a plugin for someone: the install starts as a `draft` only they see. */
export interface DraftOrigin {
  madeBy: UserRow;
  runId: number | null;
  streamId: number | null;
  topic: string | null;
  messageId: number | null;
}

interface Fetched {
  manifest: Manifest;
  source: string;
  sourceRepositoryId: number | null;
  sourcePath: string;
  sha: string;
  /** Writes the files at the pinned commit into a directory (not for remote plugins). */
  checkout?: (dest: string) => Promise<void>;
}

function parseManifest(text: string | null, where: string): Manifest {
  if (text === null) throw invalidParam(`No ${MANIFEST_FILE} in ${where}`);
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw invalidParam(`Invalid manifest: ${MANIFEST_FILE} in ${where} is not valid JSON`);
  }
  return checkManifest(json);
}

/** `a/b/` → `a/b`; no `..`, no absolute paths. */
function cleanPath(path: string): string {
  const parts = path.split("/").filter((x) => x && x !== ".");
  if (parts.some((x) => x === "..")) throw invalidParam("Invalid source_path");
  return parts.join("/");
}

async function fromRepository(repo: string, rev: string, sourcePath: string, label: string): Promise<Omit<Fetched, "source" | "sourceRepositoryId">> {
  const sha = await gitOps.resolveCommit(repo, rev);
  if (!sha) throw invalidParam(`No commit '${rev}' in ${label}`);
  const manifestPath = sourcePath ? `${sourcePath}/${MANIFEST_FILE}` : MANIFEST_FILE;
  const manifest = parseManifest(await gitOps.readFileAt(repo, sha, manifestPath), `${label}${sourcePath ? `/${sourcePath}` : ""} at ${sha.slice(0, 12)}`);
  return { manifest, sourcePath, sha, checkout: (dest) => gitOps.exportCommit(repo, sha, dest) };
}

/** Reads the manifest from the install's source, pinned at a commit (or, remote, from the service). */
async function fetchSource(app: App, realm: RealmRow, a: InstallArgs): Promise<Fetched> {
  const sourcePath = cleanPath(a.source_path ?? "");
  switch (a.source_kind) {
    case "local": {
      if (a.source_repository_id === undefined) throw missingConditional("source_repository_id");
      const repo = findRealmRepository(app, realm, a.source_repository_id);
      const f = await fromRepository(repositoryDir(app, repo), a.sha || "HEAD", sourcePath, `repository '${repo.name}'`);
      return { ...f, source: "", sourceRepositoryId: repo.id };
    }
    case "codehost": {
      const m = /^([a-z0-9.-]+)\/([A-Za-z0-9_.-]+)\/([A-Za-z0-9_.-]+)$/.exec(a.source ?? "");
      if (!m || m[2]!.startsWith(".") || m[3]!.startsWith(".")) throw invalidParam("source must be <codehost>/<owner>/<repository>");
      const [, host, owner, name] = m;
      const base = app.config.plugins.codehosts.find((c) => c.startsWith(`${host}=`))?.slice(host!.length + 1);
      if (!base) throw invalidParam(`Unknown code host '${host}'`);
      if (!a.sha) throw missingConditional("sha");
      if (!/^[0-9a-f]{7,40}$/.test(a.sha)) throw invalidParam("sha must be a commit hash");
      const mirror = join(app.config.dataDir, "codehost", host!, owner!, `${name}.git`);
      mkdirSync(join(mirror, ".."), { recursive: true });
      try {
        await gitOps.mirror(`${base.replace(/\/+$/, "")}/${owner}/${name}`, mirror);
      } catch (e) {
        throw invalidParam(`Could not fetch ${a.source}: ${(e as Error).message}`);
      }
      const f = await fromRepository(mirror, a.sha, sourcePath, a.source!);
      return { ...f, source: a.source!, sourceRepositoryId: null };
    }
    case "remote": {
      const address = (a.source ?? "").replace(/\/+$/, "");
      if (!/^https?:\/\/[^\s/]+(\/\S*)?$/i.test(address)) throw invalidParam("source must be the plugin service's http(s) address");
      let text: string | null;
      try {
        const res = await fetch(`${address}/${MANIFEST_FILE}`, { signal: AbortSignal.timeout(10_000) });
        text = res.ok ? await res.text() : null;
      } catch (e) {
        throw invalidParam(`Could not reach ${address}: ${(e as Error).message}`);
      }
      return { manifest: parseManifest(text, address), source: address, sourceRepositoryId: null, sourcePath: "", sha: "" };
    }
  }
}

function checkRequires(app: App, realm: RealmRow, m: Manifest, version: string) {
  for (const [name, range] of Object.entries(m.requires ?? {})) {
    if (name === "confab") {
      if (!Bun.semver.satisfies(version, range)) throw invalidParam(`Plugin requires confab ${range}; this server is ${version}`);
      continue;
    }
    const ok = store.listPlugins(app.db, realm.id).some((p) => p.plugin === name && !p.dateRemoved && p.state !== "draft" && Bun.semver.satisfies(p.version, range));
    if (!ok) throw invalidParam(`Plugin requires plugin '${name}' ${range}, which is not installed`);
  }
}

/** The bot's email: <plugin id>-bot@<the realm's host>, numbered when the plugin is installed again. */
function botEmail(app: App, tx: Tx, realm: RealmRow, pluginId: string): string {
  const domain = new URL(realmUrl(app.config.externalUrl, realm.stringId)).hostname;
  for (let n = 1; ; n++) {
    const email = `${pluginId}${n === 1 ? "" : `-${n}`}-bot@${domain}`;
    if (!findUserByEmail(tx.db, realm.id, email)) return email;
  }
}

/**
 * POST /ext/plugins: reads and checks the manifest at the pinned commit, creates the plugin's own bot
 * (named after it, owned by the organization), and the install: waiting when something required is
 * missing or it is turned off, else starting. With `draft`, the agent's draft for one person.
 */
export async function installPlugin(app: App, realm: RealmRow, actor: UserRow | null, a: InstallArgs, draft?: DraftOrigin) {
  requireManager(app, realm, actor);
  const f = await fetchSource(app, realm, a);
  const m = f.manifest;
  if (a.source_kind !== "remote" && !m.run) throw invalidParam("Invalid manifest: run is missing");
  checkRequires(app, realm, m, CONFAB_VERSION);
  const name = checkFullName(m.name);
  if (!name.ok) throw invalidParam(`Invalid manifest: name ${name.msg}`);
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
    row = app.tx((tx) => {
      const bot = insertUserTx(app, tx, realm, { email: botEmail(app, tx, realm, m.id), fullName: name.name, isBot: true, botType: BOT_TYPE.generic, botOwnerId: null }, null);
      tx.emit(botEvent("add", bot, app.config.externalUrl, tx.db), botAudience(tx, bot));
      let p = store.insertPlugin(tx.db, {
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
        const plan = plannedState(tx.db, p);
        p = store.updatePlugin(tx.db, p.id, plan);
      }
      tx.emit({ type: "ext_plugin", op: "add", plugin: pluginObject(tx.db, p) }, pluginAudience(tx.db, p));
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
  hostChanged(app);
  return { plugin: pluginObject(app.db, row) };
}

/** The agent's draft becomes an install like any other (waiting or starting): by its person or an administrator. */
export function publishDraftPlugin(app: App, realm: RealmRow, actor: UserRow | null, id: number) {
  const p = managed(app, realm, actor, id);
  if (p.state !== "draft") throw invalidParam("Plugin is not a draft");
  const row = app.tx((tx) => {
    // Everyone who may see it now learns of it; its person already knew.
    const plan = plannedState(tx.db, p);
    const next = store.updatePlugin(tx.db, p.id, plan);
    tx.emit({ type: "ext_plugin", op: "add", plugin: pluginObject(tx.db, next) }, pluginAudience(tx.db, next));
    return next;
  });
  hostChanged(app);
  return { plugin: pluginObject(app.db, row) };
}

// ---- Changes ----

export interface PluginPatch {
  settings?: Record<string, unknown>;
  disabled?: boolean;
  disabled_tools?: string[];
  widget_defaults?: Record<string, { nav?: string; column?: boolean }>;
}

/** PATCH /ext/plugins/{install_id}: settings (null puts one back to its default), turning off and on, tools the agent may not use, widget defaults. */
export function updatePlugin(app: App, realm: RealmRow, actor: UserRow | null, id: number, a: PluginPatch) {
  const p = managed(app, realm, actor, id);
  if (p.state === "removed") throw pluginAlreadyRemoved();
  const patch: Partial<PluginRow> = {};
  if (a.settings !== undefined) {
    patch.settings = applySettings(p.manifest, p.settings, a.settings);
    const form = new Map((p.manifest.provides.settings ?? []).map((s) => [s.key, s]));
    // A channel setting names a channel the person changing it can see.
    for (const [k, v] of Object.entries(a.settings)) if (form.get(k)?.type === "channel" && v !== null && actor) accessChannelById(app, actor, v as number);
  }
  if (a.disabled !== undefined) patch.disabled = a.disabled;
  if (a.disabled_tools !== undefined) patch.disabledTools = checkDisabledTools(p.manifest, a.disabled_tools);
  if (a.widget_defaults !== undefined) patch.widgetDefaults = applyWidgetDefaults(p.manifest, p.widgetDefaults, a.widget_defaults);
  const rerun = (a.settings !== undefined && JSON.stringify(patch.settings) !== JSON.stringify(p.settings)) || (a.disabled !== undefined && a.disabled !== p.disabled);
  const row = app.tx((tx) => {
    const updated = store.updatePlugin(tx.db, p.id, patch);
    if (rerun) return replanTx(tx, updated);
    announce(tx, updated);
    return updated;
  });
  if (rerun) hostChanged(app);
  return { plugin: pluginObject(app.db, row) };
}

const slotContext = (installId: number, name: string) => `plugin:${installId}:${name}`;

function declaredSlot(p: PluginRow, name: string) {
  if (!(p.manifest.provides.secrets ?? []).some((s) => s.name === name)) throw invalidParam(`Unknown secret '${name}'`);
}

/** POST /ext/plugins/{install_id}/secrets/{name}: a value for a secret slot; never shown again. */
export function setPluginSecret(app: App, realm: RealmRow, actor: UserRow | null, id: number, name: string, value: string) {
  const p = managed(app, realm, actor, id);
  if (p.state === "removed") throw pluginAlreadyRemoved();
  declaredSlot(p, name);
  checkSecretValue(value);
  const sealed = sealValue(app, value, slotContext(p.id, name));
  const row = app.tx((tx) => {
    store.saveSlot(tx.db, { installId: p.id, name, sealed, hint: secretHint(value), setBy: actor?.id ?? null, dateSet: app.now() });
    return replanTx(tx, p);
  });
  hostChanged(app);
  return { plugin: pluginObject(app.db, row) };
}

/** DELETE /ext/plugins/{install_id}/secrets/{name}: clears a slot (a required one makes the plugin wait). */
export function clearPluginSecret(app: App, realm: RealmRow, actor: UserRow | null, id: number, name: string) {
  const p = managed(app, realm, actor, id);
  if (p.state === "removed") throw pluginAlreadyRemoved();
  declaredSlot(p, name);
  const row = app.tx((tx) => {
    store.deleteSlot(tx.db, p.id, name);
    return replanTx(tx, p);
  });
  hostChanged(app);
  return { plugin: pluginObject(app.db, row) };
}

/** POST /ext/plugins/{install_id}/links: a link of a declared kind to a channel (topic null) or a channel and topic. */
export function addPluginLink(app: App, realm: RealmRow, actor: UserRow | null, id: number, a: { kind: string; value: string; stream_id: number; topic?: string | null }) {
  const p = managed(app, realm, actor, id);
  if (p.state === "removed") throw pluginAlreadyRemoved();
  if (!(p.manifest.provides.links ?? []).some((l) => l.kind === a.kind)) throw invalidParam(`Unknown link kind '${a.kind}'`);
  if ([...a.value].length > 200) throw invalidParam("value is too long (limit: 200 characters)");
  if (actor) accessChannelById(app, actor, a.stream_id, { content: true });
  else if (findChannel(app.db, a.stream_id)?.realmId !== realm.id) throw invalidChannelId();
  const topic = a.topic ?? null;
  if (topic !== null && [...topic].length > app.config.limits.maxTopicLength) throw invalidParam(`topic is too long (limit: ${app.config.limits.maxTopicLength} characters)`);
  if (store.listLinks(app.db, [p.id]).some((l) => l.kind === a.kind && l.value === a.value && l.streamId === a.stream_id && l.topic === topic))
    throw invalidParam("The plugin already has this link");
  return app.tx((tx) => {
    const link = store.insertLink(tx.db, { installId: p.id, kind: a.kind, value: a.value, streamId: a.stream_id, topic });
    announce(tx, p);
    return { link: toApiLink(link) };
  });
}

/** DELETE /ext/plugins/{install_id}/links/{link_id}. */
export function removePluginLink(app: App, realm: RealmRow, actor: UserRow | null, id: number, linkId: number) {
  const p = managed(app, realm, actor, id);
  const link = store.findLink(app.db, linkId);
  if (!link || link.installId !== p.id) throw noSuchLink();
  app.tx((tx) => {
    store.deleteLink(tx.db, link.id);
    deleteDocumentsOfLink(tx.db, link.id); // the link's widget documents go with it
    announce(tx, p);
  });
  return {};
}

// ---- Removal and restore ----

/** DELETE /ext/plugins/{install_id}: stops it and deactivates its bot; undoable for a week. */
export function removePlugin(app: App, realm: RealmRow, actor: UserRow | null, id: number) {
  const p = managed(app, realm, actor, id);
  if (p.state === "removed") throw pluginAlreadyRemoved();
  if (p.state === "draft") return discardDraft(app, p);
  const row = app.tx((tx) => {
    const bot = findUserById(tx.db, p.botUserId)!;
    if (bot.isActive) deactivateUser(app, bot);
    const removed = store.updatePlugin(tx.db, p.id, { dateRemoved: app.now() });
    return setPluginStateTx(tx, removed, "removed", "");
  });
  hostChanged(app);
  return { plugin: pluginObject(app.db, row) };
}

/**
 * Discarding a draft: it was only ever its person's, so it stays a draft (never shown to anyone else),
 * stamped date_removed, and disappears; only its person hears of it.
 */
function discardDraft(app: App, p: PluginRow) {
  const row = app.tx((tx) => {
    const bot = findUserById(tx.db, p.botUserId)!;
    if (bot.isActive) deactivateUser(app, bot);
    const gone = store.updatePlugin(tx.db, p.id, { dateRemoved: app.now() });
    tx.emit({ type: "ext_plugin", op: "remove", install_id: p.id }, pluginAudience(tx.db, gone));
    return gone;
  });
  return { plugin: pluginObject(app.db, row) };
}

/** POST /ext/plugins/{install_id}/restore: within a week of removal, bot, settings, secrets and links come back and it starts again. */
export function restorePlugin(app: App, realm: RealmRow, actor: UserRow | null, id: number) {
  if (actor) requireHumanMember(actor);
  requireManager(app, realm, actor);
  const p = pluginFor(app, realm, actor, id, { final: true });
  if (p.state !== "removed") throw pluginNotRemoved();
  if (removalIsFinal(p, app.now())) throw removalFinal();
  const row = app.tx((tx) => {
    const bot = findUserById(tx.db, p.botUserId)!;
    if (!bot.isActive) reactivateUserTx(app, tx, bot);
    const back = store.updatePlugin(tx.db, p.id, { dateRemoved: null, revision: p.revision + 1 });
    const plan = plannedState(tx.db, back);
    return setPluginStateTx(tx, back, plan.state, plan.detail);
  });
  hostChanged(app);
  return { plugin: pluginObject(app.db, row) };
}

/**
 * Removals older than a week become final: the secret slots' values, the links and the widgets go, and members hear
 * the install is gone (op `remove`). The host runs this now and then.
 */
export function finalizeRemovals(app: App) {
  const due = store.listRemovedBefore(app.db, app.now() - 7 * 24 * 3600).filter((p) => p.state === "removed");
  for (const p of due) {
    if (!store.listSlots(app.db, [p.id]).length && !store.listLinks(app.db, [p.id]).length && !listDocuments(app.db, [p.id]).length) continue; // already final
    app.tx((tx) => {
      store.deleteSlots(tx.db, p.id);
      store.deleteLinks(tx.db, p.id);
      deleteWidgetsOfInstall(tx.db, p.id);
      tx.emit({ type: "ext_plugin", op: "remove", install_id: p.id }, pluginAudience(tx.db, p));
    });
    rmSync(pluginDir(app, p.id), { recursive: true, force: true });
  }
}

// ---- What a process is given ----

/** The host's view of the installs it should know about (every realm). */
export const listHostedPlugins = (app: App) => store.listAllPlugins(app.db);

export const findPluginRow = (app: App, id: number) => store.findPlugin(app.db, id);

/**
 * The environment a plugin's process gets (besides PATH, HOME and the locale): the API address, its
 * bot's email and key (also under the names Zulip's API bindings read), its install id, its settings,
 * its secret slots (EXT_SECRET_<NAME>) and the organization secrets its manifest's run.secrets names;
 * and, when it provides tools, the socket to serve them on.
 */
export function pluginRunEnv(app: App, p: PluginRow): Record<string, string> {
  const bot = findUserById(app.db, p.botUserId)!;
  const site = realmUrl(app.config.externalUrl, findRealmById(app.db, p.realmId)!.stringId);
  const slots: SealedSlot[] = store.listSlots(app.db, [p.id]).map((s) => ({ env: `EXT_SECRET_${s.name}`, sealed: s.sealed, context: slotContext(p.id, s.name) }));
  const { env } = runSecretEnv(app, p.realmId, p.manifest.run?.secrets ?? [], slots);
  return {
    ...env,
    EXT_SITE: site,
    EXT_API_URL: `${site}/api/v1`,
    EXT_EMAIL: bot.email,
    EXT_API_KEY: bot.apiKey,
    EXT_INSTALL_ID: String(p.id),
    EXT_SETTINGS: JSON.stringify(effectiveSettings(p.manifest, p.settings)),
    ...(p.manifest.provides.tools?.length ? { EXT_TOOLS_SOCKET: pluginToolsSocket(app, p.id) } : {}),
    ZULIP_SITE: site,
    ZULIP_EMAIL: bot.email,
    ZULIP_API_KEY: bot.apiKey,
  };
}

/** GET /ext/plugins/{install_id}/logs: the last lines its process wrote (standard output and error); administrators. */
export function pluginLogs(app: App, realm: RealmRow, actor: UserRow | null, id: number, lines: number) {
  const p = managed(app, realm, actor, id);
  return { lines: readLastLines(pluginOutputFile(app, p.id), lines) };
}

export function readLastLines(file: string, n: number): string[] {
  if (!existsSync(file) || !statSync(file).isFile()) return [];
  const text = readFileSync(file, "utf8");
  const lines = text.split("\n");
  if (lines.at(-1) === "") lines.pop();
  return lines.slice(-n);
}

// ---- Tools ----

const toolInputs = new Map<string, ReturnType<Ajv["compile"]>>();

/**
 * Calls one of a running plugin's tools for the agent: declared in its manifest, not among its
 * `disabled_tools`, the input checked against the tool's `input` schema. The plugin answers an HTTP
 * POST /tools/<name> with body {"install_id", "input"}: a remote plugin at its address, a process on
 * the Unix socket in EXT_TOOLS_SOCKET. Resolves to the JSON it answers with.
 */
export async function callPluginTool(app: App, realm: RealmRow, actor: UserRow | null, id: number, tool: string, input: unknown, o: { timeoutMs?: number } = {}) {
  if (actor) requireHumanMember(actor);
  const p = pluginFor(app, realm, actor, id);
  const spec = (p.manifest.provides.tools ?? []).find((t) => t.name === tool);
  if (!spec) throw invalidParam(`Unknown tool '${tool}'`);
  if (p.disabledTools.includes(tool)) throw invalidParam(`Tool '${tool}' is turned off for the agent`);
  if (p.state !== "running") throw invalidParam(`Plugin '${p.name}' is not running`);
  if (spec.input) {
    const key = `${p.id}:${p.revision}:${tool}`;
    let check = toolInputs.get(key);
    if (!check) toolInputs.set(key, (check = new (require("ajv") as typeof import("ajv")).default({ strict: false }).compile(spec.input)));
    if (!check(input)) throw invalidParam(`Invalid input for tool '${tool}': ${check.errors![0]!.instancePath || "input"} ${check.errors![0]!.message}`);
  }
  const remote = p.sourceKind === "remote";
  const url = remote ? `${p.source}/tools/${encodeURIComponent(tool)}` : `http://plugin/tools/${encodeURIComponent(tool)}`;
  let res: Response;
  try {
    res = await fetch(url, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ install_id: p.id, input }),
      signal: AbortSignal.timeout(o.timeoutMs ?? 60_000),
      ...(remote ? {} : { unix: pluginToolsSocket(app, p.id) }),
    });
  } catch (e) {
    throw invalidParam(`Tool '${tool}' did not answer: ${(e as Error).message}`);
  }
  const text = await res.text();
  if (!res.ok) throw invalidParam(`Tool '${tool}' failed: HTTP ${res.status}${text ? `: ${text.split("\n")[0]!.slice(0, 200)}` : ""}`);
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw invalidParam(`Tool '${tool}' answered with something other than JSON`);
  }
}
