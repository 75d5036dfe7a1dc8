// Topic workspaces: the `workspace` object and the README's wire encodings.
import type { WorkspaceRow } from "../db/schema";
import { invalid, invalidClient } from "./errors";

export const toApiWorkspace = (w: WorkspaceRow) => ({
  workspace_uuid: w.uuid,
  stream_id: w.channelId,
  topic: w.topic,
  repository_id: w.repositoryId,
  branch: w.branch,
  created_by: w.createdBy,
  date_created: w.dateCreated,
});

/** The branch a workspace's worktree is on, in its repository. */
export const workspaceBranch = (uuid: string) => `workspace/${uuid}`;

/** Topics compare as SQLite's NOCASE does (ASCII letters only), like message topics. */
export const topicKey = (channelId: number, topic: string) => `${channelId}\n${topic.replace(/[A-Z]/g, (c) => c.toLowerCase())}`;

/** A Yjs client id, sent in decimal (Yjs draws them from 32 bits). */
export function parseClientId(s: string): number {
  if (!/^\d{1,10}$/.test(s) || Number(s) > 0xffffffff) throw invalidClient();
  return Number(s);
}

/** Standard base64 (the encoding of every Yjs and awareness update on the wire). */
export function parseBase64(s: string, what: string): Uint8Array {
  if (!s || s.length % 4 !== 0 || !/^[A-Za-z0-9+/]*={0,2}$/.test(s)) throw invalid(what);
  return new Uint8Array(Buffer.from(s, "base64"));
}

export const toBase64 = (bytes: Uint8Array) => Buffer.from(bytes).toString("base64");
