import { and, asc, eq, sql, type SQL } from "drizzle-orm";
import type { Db } from "../db/client";
import { preparedPerDb } from "../db/prepared";
import { workspaces, type WorkspaceRow } from "../db/schema";
import { topicKey } from "../domain/workspaces";

export const insertWorkspace = async (db: Db, row: typeof workspaces.$inferInsert): Promise<WorkspaceRow> =>
  db.insert(workspaces).values(row).returning().get();

export const updateWorkspace = async (db: Db, id: number, patch: Partial<typeof workspaces.$inferInsert>): Promise<WorkspaceRow> =>
  db.update(workspaces).set(patch).where(eq(workspaces.id, id)).returning().get()!;

export const deleteWorkspace = async (db: Db, id: number) => db.delete(workspaces).where(eq(workspaces.id, id)).run();

export const findWorkspace = async (db: Db, uuid: string): Promise<WorkspaceRow | undefined> =>
  db.select().from(workspaces).where(eq(workspaces.uuid, uuid)).get();

// Every channel send asks for its topic's workspace: prepared once per connection.
const byTopic = preparedPerDb((db) =>
  db
    .select()
    .from(workspaces)
    .where(and(eq(workspaces.channelId, sql.placeholder("channelId")), eq(workspaces.topic, sql.placeholder("topic"))))
    .prepare(),
);

/** The workspace of a topic (topics compare case-insensitively, like message topics). */
export const findTopicWorkspace = async (db: Db, channelId: number, topic: string): Promise<WorkspaceRow | undefined> => byTopic(db).get({ channelId, topic });

export async function listWorkspaces(db: Db, realmId: number, f: { channelId?: number; topic?: string } = {}): Promise<WorkspaceRow[]> {
  const where: (SQL | undefined)[] = [eq(workspaces.realmId, realmId)];
  if (f.channelId !== undefined) where.push(eq(workspaces.channelId, f.channelId));
  if (f.topic !== undefined) where.push(eq(workspaces.topic, f.topic));
  return db
    .select()
    .from(workspaces)
    .where(and(...where))
    .orderBy(asc(workspaces.id))
    .all();
}

/** Every workspace uuid of a realm by topicKey, for topic lists and message objects. */
export const workspaceUuidsByTopic = async (db: Db, realmId: number): Promise<Map<string, string>> =>
  new Map((await listWorkspaces(db, realmId)).map((w) => [topicKey(w.channelId, w.topic), w.uuid]));
