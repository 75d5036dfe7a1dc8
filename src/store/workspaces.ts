import { and, asc, eq, sql, type SQL } from "drizzle-orm";
import type { Db } from "../db/client";
import { preparedPerDb } from "../db/prepared";
import { type workspaces, type WorkspaceRow } from "../db/schema";
import { tables } from "../db/engine";
import { first, all, run } from "../db/query";
import { topicKey } from "../domain/workspaces";

export const insertWorkspace = async (db: Db, row: typeof workspaces.$inferInsert): Promise<WorkspaceRow> => {
  const { workspaces } = tables(db);
  return first(db.insert(workspaces).values(row).returning());
};

export const updateWorkspace = async (db: Db, id: number, patch: Partial<typeof workspaces.$inferInsert>): Promise<WorkspaceRow> => {
  const { workspaces } = tables(db);
  return (await first(db.update(workspaces).set(patch).where(eq(workspaces.id, id)).returning()))!;
};

export const deleteWorkspace = async (db: Db, id: number) => {
  const { workspaces } = tables(db);
  return run(db.delete(workspaces).where(eq(workspaces.id, id)));
};

export const findWorkspace = async (db: Db, uuid: string): Promise<WorkspaceRow | undefined> => {
  const { workspaces } = tables(db);
  return first(db.select().from(workspaces).where(eq(workspaces.uuid, uuid)));
};

// Every channel send asks for its topic's workspace: prepared once per connection.
const byTopic = preparedPerDb((db) => {
  const { workspaces } = tables(db);
  return db
    .select()
    .from(workspaces)
    .where(and(eq(workspaces.channelId, sql.placeholder("channelId")), eq(workspaces.topic, sql.placeholder("topic"))));
});

/** The workspace of a topic (topics compare case-insensitively, like message topics). */
export const findTopicWorkspace = async (db: Db, channelId: number, topic: string): Promise<WorkspaceRow | undefined> => byTopic(db).get({ channelId, topic });

export async function listWorkspaces(db: Db, realmId: number, f: { channelId?: number; topic?: string } = {}): Promise<WorkspaceRow[]> {
  const { workspaces } = tables(db);
  const where: (SQL | undefined)[] = [eq(workspaces.realmId, realmId)];
  if (f.channelId !== undefined) where.push(eq(workspaces.channelId, f.channelId));
  if (f.topic !== undefined) where.push(eq(workspaces.topic, f.topic));
  return all(
    db
      .select()
      .from(workspaces)
      .where(and(...where))
      .orderBy(asc(workspaces.id)),
  );
}

/** Every workspace uuid of a realm by topicKey, for topic lists and message objects. */
export const workspaceUuidsByTopic = async (db: Db, realmId: number): Promise<Map<string, string>> =>
  new Map((await listWorkspaces(db, realmId)).map((w) => [topicKey(w.channelId, w.topic), w.uuid]));
