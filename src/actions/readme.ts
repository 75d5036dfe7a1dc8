// A workspace's README, edited together with Yjs. A client opens it (and gets the document and every
// cursor), sends updates and awareness changes, and closes it. While any of a user's clients has it
// open, that user's clients get `ext_readme` events with what the other editors send; after the last
// one closes, none. The document itself lives in lib/readme-docs.ts.
import type { App } from "../context";
import type { UserRow } from "../db/schema";
import { invalidParam, nothingToChange, readmeClientInUse, readmeNotOpen } from "../domain/errors";
import { parseBase64, parseClientId, toBase64 } from "../domain/workspaces";
import { toUsers } from "../events/types";
import { detached } from "../lib/detached";
import { checkAwareness, ReadmeDocs, ReadmeError } from "../lib/readme-docs";
import { readableWorkspace, workspaceDir } from "./workspace-access";
import { p, type Args } from "../domain/params";

const docs = new WeakMap<App, ReadmeDocs>();

function docsOf(app: App): ReadmeDocs {
  let d = docs.get(app);
  if (!d) {
    const emit = async (uuid: string, client: number, body: { op: "update"; update: Uint8Array } | { op: "awareness"; awareness: Uint8Array }) => {
      const payload = body.op === "update" ? { update: toBase64(body.update) } : { awareness: toBase64(body.awareness) };
      await app.tx((tx) => tx.emit({ type: "ext_readme", op: body.op, workspace_uuid: uuid, client: String(client), ...payload }, toUsers(d!.viewers(uuid))));
    };
    // Called from Yjs's events and timers, which do not wait: a failure (writes off, say) is logged.
    d = new ReadmeDocs(
      detached(app.log, "README event not sent", (uuid, client, awareness) => emit(uuid, client, { op: "awareness", awareness })),
      detached(app.log, "README event not sent", (uuid, client, update) => emit(uuid, client, { op: "update", update })),
      (file, e) => app.log.error("README not saved", { file, error: String((e as Error)?.message ?? e) }),
    );
    docs.set(app, d);
  }
  return d;
}

const broadcast = async (app: App, uuid: string, client: number, op: "update" | "awareness", bytes: Uint8Array, audience: number[]) =>
  await app.tx((tx) => tx.emit({ type: "ext_readme", op, workspace_uuid: uuid, client: String(client), [op]: toBase64(bytes) }, toUsers(audience)));

/** Runs a document change, turning a refused update into the API's error. */
function applying<T>(fn: () => T): T {
  try {
    return fn();
  } catch (e) {
    if (e instanceof ReadmeError) throw invalidParam(e.message);
    throw e;
  }
}

/** The client's README session: it must be open, by this user. */
async function openClient(app: App, user: UserRow, uuid: string, clientText: string): Promise<number> {
  await readableWorkspace(app, user, uuid);
  const client = parseClientId(clientText);
  if (docsOf(app).userOf(uuid, client) !== user.id) throw readmeNotOpen();
  return client;
}

export const openReadmeParams = { client: p.str(), awareness: p.str().optional() };

/**
 * POST /ext/workspaces/{workspace_uuid}/readme: opens the README for a client and answers the document's
 * state and the other viewers' cursors; with `awareness`, the client's own cursor, which the others get.
 */
export async function openReadme(app: App, user: UserRow, uuid: string, a: Args<typeof openReadmeParams>) {
  const w = await readableWorkspace(app, user, uuid);
  const client = parseClientId(a.client);
  const cursor = a.awareness === undefined ? null : parseBase64(a.awareness, "awareness update");
  if (cursor) applying(() => checkAwareness(cursor, client));
  const d = docsOf(app);
  const holder = d.userOf(uuid, client);
  if (holder !== undefined && holder !== user.id) throw readmeClientInUse();
  const opened = d.open(uuid, workspaceDir(app, w), client, user.id);
  if (cursor) {
    d.awareness(uuid, client, cursor);
    await broadcast(app, uuid, client, "awareness", cursor, d.viewers(uuid));
  }
  return { state: toBase64(opened.state), awareness: toBase64(opened.awareness) };
}

export const editReadmeParams = { client: p.str(), update: p.str().optional(), awareness: p.str().optional() };

/** PATCH /ext/workspaces/{workspace_uuid}/readme: a client's Yjs update and/or awareness update. */
export async function editReadme(app: App, user: UserRow, uuid: string, a: Args<typeof editReadmeParams>) {
  const client = await openClient(app, user, uuid, a.client);
  if (a.update === undefined && a.awareness === undefined) throw nothingToChange();
  const update = a.update === undefined ? null : parseBase64(a.update, "update");
  const cursor = a.awareness === undefined ? null : parseBase64(a.awareness, "awareness update");
  const d = docsOf(app);
  if (update) applying(() => d.update(uuid, update));
  if (cursor) applying(() => d.awareness(uuid, client, cursor));
  const viewers = d.viewers(uuid);
  if (update) await broadcast(app, uuid, client, "update", update, viewers);
  if (cursor) await broadcast(app, uuid, client, "awareness", cursor, viewers);
  return {};
}

export const closeReadmeParams = { client: p.str(), awareness: p.str().optional() };

/** DELETE /ext/workspaces/{workspace_uuid}/readme: the client leaves; the other viewers see its cursor go. */
export async function closeReadme(app: App, user: UserRow, uuid: string, a: Args<typeof closeReadmeParams>) {
  const client = await openClient(app, user, uuid, a.client);
  const cursor = a.awareness === undefined ? null : parseBase64(a.awareness, "awareness update");
  const d = docsOf(app);
  const gone = applying(() => d.close(uuid, client, cursor));
  if (gone) await broadcast(app, uuid, client, "awareness", gone, d.viewers(uuid));
  return {};
}

/** Writes a README's pending changes to its file now (before an agent turn reads the worktree). */
export const flushReadme = (app: App, uuid: string) => docs.get(app)?.flush(uuid);

/** Takes in what an agent turn wrote to the README file; the viewers get it as an update. */
export const syncReadmeFromFile = (app: App, uuid: string) => docs.get(app)?.syncFromFile(uuid);

/** Saves and closes a README for everyone (its workspace is being removed). */
export const unloadReadme = (app: App, uuid: string) => docs.get(app)?.unload(uuid);

/** Saves every open README (the server is stopping). */
export const closeAllReadmes = (app: App) => docs.get(app)?.unloadAll();
