import { and, asc, desc, eq, inArray, isNotNull, lt, sql } from "drizzle-orm";
import type { Db } from "../db/client";
import { inIds } from "../db/in-ids";
import { attachments, messageAttachments, messages, type AttachmentRow } from "../db/schema";

export type NewAttachment = Omit<AttachmentRow, "id">;

export const insertAttachment = async (db: Db, a: NewAttachment): Promise<AttachmentRow> => db.insert(attachments).values(a).returning().get();

export const findAttachment = async (db: Db, id: number): Promise<AttachmentRow | undefined> =>
  db.select().from(attachments).where(eq(attachments.id, id)).get();

export const findAttachmentByPath = async (db: Db, pathId: string): Promise<AttachmentRow | undefined> =>
  db.select().from(attachments).where(eq(attachments.pathId, pathId)).get();

export const findAttachmentsByPaths = async (db: Db, realmId: number, pathIds: string[]): Promise<AttachmentRow[]> =>
  pathIds.length
    ? db
        .select()
        .from(attachments)
        .where(and(eq(attachments.realmId, realmId), inArray(attachments.pathId, pathIds)))
        .all()
    : [];

/** A user's uploads, newest first. */
export const listOwnAttachments = async (db: Db, ownerId: number): Promise<AttachmentRow[]> =>
  db.select().from(attachments).where(eq(attachments.ownerId, ownerId)).orderBy(desc(attachments.id)).all();

/** Bytes the realm's uploads take (for its quota and upload_space_used). */
export const realmUploadBytes = async (db: Db, realmId: number): Promise<number> =>
  db
    .select({ n: sql<number>`coalesce(sum(${attachments.size}), 0)` })
    .from(attachments)
    .where(eq(attachments.realmId, realmId))
    .get()!.n;

/** The messages linking each attachment, oldest first: { attachmentId → [{ id, date_sent }] }. */
export async function linkedMessages(db: Db, attachmentIds: number[]): Promise<Map<number, { id: number; dateSent: number }[]>> {
  const out = new Map<number, { id: number; dateSent: number }[]>();
  if (!attachmentIds.length) return out;
  const rows = db
    .select({ a: messageAttachments.attachmentId, id: messages.id, dateSent: messages.dateSent })
    .from(messageAttachments)
    .innerJoin(messages, eq(messages.id, messageAttachments.messageId))
    .where(inIds(messageAttachments.attachmentId, attachmentIds))
    .orderBy(asc(messages.id))
    .all();
  for (const r of rows) out.set(r.a, [...(out.get(r.a) ?? []), { id: r.id, dateSent: r.dateSent }]);
  return out;
}

/** Ids of the messages linking one attachment. */
export const linkingMessageIds = async (db: Db, attachmentId: number): Promise<number[]> =>
  db
    .select({ id: messageAttachments.messageId })
    .from(messageAttachments)
    .where(eq(messageAttachments.attachmentId, attachmentId))
    .all()
    .map((r) => r.id);

/** Attachment ids a message links. */
export const messageAttachmentIds = async (db: Db, messageIds: number[]): Promise<number[]> =>
  messageIds.length
    ? db
        .selectDistinct({ id: messageAttachments.attachmentId })
        .from(messageAttachments)
        .where(inIds(messageAttachments.messageId, messageIds))
        .all()
        .map((r) => r.id)
    : [];

export const linkAttachments = async (db: Db, messageId: number, attachmentIds: number[]) => {
  if (!attachmentIds.length) return;
  db.insert(messageAttachments)
    .values(attachmentIds.map((attachmentId) => ({ messageId, attachmentId })))
    .onConflictDoNothing()
    .run();
  db.update(attachments).set({ unreferencedSince: null }).where(inIds(attachments.id, attachmentIds)).run();
};

export const unlinkAttachments = async (db: Db, messageIds: number[], attachmentIds?: number[]) => {
  if (!messageIds.length) return;
  const byMessage = inIds(messageAttachments.messageId, messageIds);
  db.delete(messageAttachments)
    .where(attachmentIds ? and(byMessage, inIds(messageAttachments.attachmentId, attachmentIds)) : byMessage)
    .run();
};

/** Of these attachments, the ones no message links any more: they start their grace period now. */
export async function markUnreferenced(db: Db, attachmentIds: number[], now: number): Promise<number[]> {
  if (!attachmentIds.length) return [];
  const linked = new Set(
    db
      .selectDistinct({ id: messageAttachments.attachmentId })
      .from(messageAttachments)
      .where(inIds(messageAttachments.attachmentId, attachmentIds))
      .all()
      .map((r) => r.id),
  );
  const orphans = attachmentIds.filter((id) => !linked.has(id));
  if (orphans.length) db.update(attachments).set({ unreferencedSince: now }).where(inIds(attachments.id, orphans)).run();
  return orphans;
}

/** Attachments unreferenced since before `cutoff`, at most `limit`. */
export const listExpiredAttachments = async (db: Db, cutoff: number, limit: number): Promise<AttachmentRow[]> =>
  db
    .select()
    .from(attachments)
    .where(and(isNotNull(attachments.unreferencedSince), lt(attachments.unreferencedSince, cutoff)))
    .limit(limit)
    .all();

export const deleteAttachments = async (db: Db, ids: number[]) => {
  if (ids.length) db.delete(attachments).where(inIds(attachments.id, ids)).run();
};
