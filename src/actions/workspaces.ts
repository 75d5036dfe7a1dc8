// Topic workspaces: a git worktree of a repository kept by this server, one per topic, on a branch of
// its own. The agent's runs in that topic work in it, and its README is edited together (readme.ts).
// Who may read one, and where it lives: workspace-access.ts.
import { rmSync } from "node:fs";
import { join } from "node:path";
import type { App } from "../context";
import type { ChannelRow, RealmRow, UserRow, WorkspaceRow } from "../db/schema";
import type { Tx } from "../db/tx";
import { insufficientPermission, repositoryEmpty, topicHasWorkspace, unknownRevision } from "../domain/errors";
import { normalizeTopic } from "../domain/messages";
import { isAdmin } from "../domain/roles";
import { toApiWorkspace, workspaceBranch } from "../domain/workspaces";
import { toUsers } from "../events/types";
import * as gitOps from "../lib/git";
import { findChannel } from "../store/channels";
import * as store from "../store/workspaces";
import { unloadReadme } from "./readme";
import { channelReaderIds, readableWorkspace, workspaceDir } from "./workspace-access";
import { findRealmRepository, repositoryDir } from "./repositories";
import { requireHumanMember } from "./secrets";
import { p, type Args } from "../domain/params";
import { accessChannelById, channelAccess } from "../access/channels";
import { filterInOrder } from "../lib/in-order";

/**
 * A whole topic moved (renamed, or to another channel): its workspace goes with it, unless the
 * destination topic has one of its own. Inside the move's transaction.
 */
export async function moveTopicWorkspaceTx(app: App, tx: Tx, from: { channel: ChannelRow; topic: string }, to: { channel: ChannelRow; topic: string }) {
  const w = await store.findTopicWorkspace(tx.db, from.channel.id, from.topic);
  if (!w || (await store.findTopicWorkspace(tx.db, to.channel.id, to.topic))) return;
  const moved = await store.updateWorkspace(tx.db, w.id, { channelId: to.channel.id, topic: to.topic });
  const readers = new Set([...(await channelReaderIds(app, from.channel)), ...(await channelReaderIds(app, to.channel))]);
  tx.emit({ type: "ext_workspace", op: "update", workspace: toApiWorkspace(moved) }, toUsers([...readers]));
}

export const createWorkspaceParams = { stream_id: p.int(), topic: p.str(), repository_id: p.int(), start: p.str().optional() };

/**
 * POST /ext/workspaces: a worktree of the repository for the topic, on a new branch from `start` (a
 * branch, tag or commit; the repository's default branch when absent). Members who can read the channel.
 */
export async function createWorkspace(app: App, realm: RealmRow, user: UserRow, a: Args<typeof createWorkspaceParams>) {
  requireHumanMember(user);
  const { channel } = await accessChannelById(app, user, a.stream_id, { content: true });
  const topic = normalizeTopic(a.topic, app.config.limits.maxTopicLength);
  const repo = await findRealmRepository(app, realm, a.repository_id);
  if (await store.findTopicWorkspace(app.db, channel.id, topic)) throw topicHasWorkspace();
  const repoDir = repositoryDir(app, repo);
  const start = a.start ?? (await gitOps.headBranch(repoDir));
  const sha = await gitOps.resolveCommit(repoDir, start);
  if (!sha) throw a.start === undefined ? repositoryEmpty() : unknownRevision(a.start);
  const uuid = crypto.randomUUID();
  const branch = workspaceBranch(uuid);
  const dir = join(app.config.dataDir, "workspaces", uuid);
  await gitOps.addWorktree(repoDir, dir, branch, sha);
  try {
    return await app.tx(async (tx) => {
      if (await store.findTopicWorkspace(tx.db, channel.id, topic)) throw topicHasWorkspace(); // made while git ran
      const row = await store.insertWorkspace(tx.db, {
        uuid,
        realmId: realm.id,
        repositoryId: repo.id,
        channelId: channel.id,
        topic,
        branch,
        createdBy: user.id,
        dateCreated: app.now(),
      });
      const workspace = toApiWorkspace(row);
      tx.emit({ type: "ext_workspace", op: "add", workspace }, toUsers(await channelReaderIds(app, channel)));
      return { workspace };
    });
  } catch (e) {
    await gitOps.removeWorktree(repoDir, dir).catch(() => rmSync(dir, { recursive: true, force: true }));
    throw e;
  }
}

export const listWorkspacesParams = { stream_id: p.int().optional(), topic: p.str().optional() };

/** GET /ext/workspaces: the workspaces of channels the user can read. */
export async function listWorkspaces(app: App, realm: RealmRow, user: UserRow, a: Args<typeof listWorkspacesParams>) {
  requireHumanMember(user);
  const readable = new Map<number, boolean>();
  const canRead = async (channelId: number) => {
    if (!readable.has(channelId)) {
      const c = await findChannel(app.db, channelId);
      readable.set(channelId, !!c && (await channelAccess(app, user, c)).content);
    }
    return readable.get(channelId)!;
  };
  const rows = await store.listWorkspaces(app.db, realm.id, { channelId: a.stream_id, topic: a.topic });
  return { workspaces: (await filterInOrder(rows, async (w) => await canRead(w.channelId))).map(toApiWorkspace) };
}

/** GET /ext/workspaces/{workspace_uuid}. */
export async function getWorkspace(app: App, user: UserRow, uuid: string) {
  requireHumanMember(user);
  return { workspace: toApiWorkspace(await readableWorkspace(app, user, uuid)) };
}

/**
 * DELETE /ext/workspaces/{workspace_uuid}: by the one who made it or an administrator. Its files are
 * committed to its branch first (the README as last saved), so the repository keeps the work.
 */
export async function removeWorkspace(app: App, realm: RealmRow, user: UserRow, uuid: string) {
  requireHumanMember(user);
  const w = await readableWorkspace(app, user, uuid);
  if (w.createdBy !== user.id && !isAdmin(user.role)) throw insufficientPermission();
  const repo = await findRealmRepository(app, realm, w.repositoryId);
  const repoDir = repositoryDir(app, repo);
  const dir = workspaceDir(app, w);
  unloadReadme(app, uuid);
  await gitOps.commitDirectory(repoDir, dir, w.branch, `Workspace of "${w.topic}" removed`, { name: user.fullName, email: user.email });
  await gitOps.removeWorktree(repoDir, dir).catch(() => rmSync(dir, { recursive: true, force: true }));
  await app.tx(async (tx) => {
    if (!(await store.findWorkspace(tx.db, uuid))) return; // removed by a concurrent request
    await store.deleteWorkspace(tx.db, w.id);
    const c = await findChannel(tx.db, w.channelId);
    tx.emit(
      { type: "ext_workspace", op: "remove", workspace_uuid: uuid, stream_id: w.channelId, topic: w.topic },
      toUsers(c ? await channelReaderIds(app, c) : []),
    );
  });
  return {};
}
