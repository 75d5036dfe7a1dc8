// Git repositories kept by this server: created by administrators, filled from a directory or another
// repository (the CLI), read by plugin installs (`local` source) and by the agent's workspaces.
import { existsSync, rmSync, statSync } from "node:fs";
import { join, resolve } from "node:path";
import type { App } from "../context";
import type { RealmRow, RepositoryRow, UserRow } from "../db/schema";
import {
  descriptionTooLongLimitCharacters,
  guestsRefused,
  invalidParam,
  mustBeAdmin,
  noSuchRepository,
  notDirectory,
  repositoryNameInUse,
} from "../domain/errors";
import { REPOSITORY_LIMITS, repositoryNameProblem, toApiRepository } from "../domain/repositories";
import { isAdmin, isGuest } from "../domain/roles";
import * as gitOps from "../lib/git";
import * as store from "../store/repositories";
import { p, type Args } from "../domain/params";

export const MANIFEST_FILE = "manifest.json";

/** The bare git directory of a repository. */
export const repositoryDir = (app: App, repo: RepositoryRow) => join(app.config.dataDir, "repositories", `${repo.id}.git`);

/** `actor` null is the server's operator (the CLI, the runtime). Guests see no repositories. */
function requireReader(actor: UserRow | null) {
  if (actor && isGuest(actor.role)) throw guestsRefused();
}

function requireAdmin(actor: UserRow | null) {
  if (actor && !isAdmin(actor.role)) throw mustBeAdmin();
}

/** A repository of the realm, by id or name. */
export async function findRealmRepository(app: App, realm: RealmRow, ref: number | string): Promise<RepositoryRow> {
  const repo = typeof ref === "number" ? await store.findRepository(app.db, ref) : await store.findRepositoryByName(app.db, realm.id, ref);
  if (!repo || repo.realmId !== realm.id) throw noSuchRepository();
  return repo;
}

/** GET /ext/repositories. */
export async function listRepositories(app: App, realm: RealmRow, actor: UserRow | null) {
  requireReader(actor);
  return { repositories: (await store.listRepositories(app.db, realm.id)).map(toApiRepository) };
}

/** GET /ext/repositories/{repository_id}: with its branches and the plugin directories at its head. */
export async function getRepository(app: App, realm: RealmRow, actor: UserRow | null, id: number) {
  requireReader(actor);
  const repo = await findRealmRepository(app, realm, id);
  const dir = repositoryDir(app, repo);
  const branches = await gitOps.listBranches(dir);
  const manifests = repo.head ? await gitOps.findFiles(dir, repo.head, MANIFEST_FILE) : [];
  return {
    repository: toApiRepository(repo),
    branches,
    plugin_paths: manifests.map((p) => p.slice(0, -MANIFEST_FILE.length).replace(/\/$/, "")),
  };
}

export const createRepositoryParams = { name: p.str(), description: p.str().optional("") };

/** POST /ext/repositories: an empty repository (branch `main`); administrators. */
export async function createRepository(app: App, realm: RealmRow, actor: UserRow | null, a: Args<typeof createRepositoryParams>) {
  requireAdmin(actor);
  const problem = repositoryNameProblem(a.name);
  if (problem) throw invalidParam(problem);
  const description = a.description;
  if ([...description].length > REPOSITORY_LIMITS.description) throw descriptionTooLongLimitCharacters(REPOSITORY_LIMITS.description);
  if (await store.findRepositoryByName(app.db, realm.id, a.name)) throw repositoryNameInUse(a.name);
  const row = await app.tx(async (tx) => {
    if (await store.findRepositoryByName(tx.db, realm.id, a.name)) throw repositoryNameInUse(a.name);
    return await store.insertRepository(tx.db, { realmId: realm.id, name: a.name, description, createdBy: actor?.id ?? null, dateCreated: app.now() });
  });
  const dir = repositoryDir(app, row);
  try {
    rmSync(dir, { recursive: true, force: true }); // left by a create that failed half-way
    await gitOps.initBare(dir);
  } catch (e) {
    await app.tx(async (tx) => await store.deleteRepository(tx.db, row.id));
    throw e;
  }
  return { repository: toApiRepository(row) };
}

/** Records the default branch's commit after a change (an import, or the agent's commits). */
export async function refreshRepositoryHead(app: App, repo: RepositoryRow): Promise<RepositoryRow> {
  const dir = repositoryDir(app, repo);
  const head = (await gitOps.resolveCommit(dir, "HEAD")) ?? "";
  if (head === repo.head) return repo;
  return await app.tx(async (tx) => await store.updateRepository(tx.db, repo.id, { head, dateUpdated: app.now() }));
}

/**
 * Puts content into a repository: from a git repository at `path` (its branches and tags are fetched),
 * or from a plain directory (committed as the next commit of the default branch). Administrators.
 */
export async function importIntoRepository(app: App, realm: RealmRow, actor: UserRow | null, ref: number | string, path: string, o: { message?: string } = {}) {
  requireAdmin(actor);
  const repo = await findRealmRepository(app, realm, ref);
  const source = resolve(path);
  if (!existsSync(source) || !statSync(source).isDirectory()) throw notDirectory(path);
  const dir = repositoryDir(app, repo);
  if (gitOps.isRepository(source)) await gitOps.fetchAll(dir, source);
  else {
    const who = actor ? { name: actor.fullName, email: actor.email } : undefined;
    await gitOps.commitDirectory(dir, source, await gitOps.headBranch(dir), o.message ?? `Import ${source}`, who);
  }
  return { repository: toApiRepository(await refreshRepositoryHead(app, repo)) };
}
