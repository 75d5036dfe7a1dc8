import { and, asc, desc, eq, inArray, isNotNull, lt, sql } from "drizzle-orm";
import type { Db } from "../db/client";
import { inIds } from "../db/in-ids";
import { type AttachmentRow } from "../db/schema";
import { tables } from "../db/engine";
import { first, all, run } from "../db/query";

export type NewAttachment = Omit<AttachmentRow, "id">;

export const insertAttachment = async (db: Db, a: NewAttachment): Promise<AttachmentRow> => {
  const { attachments } = tables(db);
  return first(db.insert(attachments).values(a).returning());
};

export const findAttachment = async (db: Db, id: number): Promise<AttachmentRow | undefined> => {
  const { attachments } = tables(db);
  return first(db.select().from(attachments).where(eq(attachments.id, id)));
};

export const findAttachmentByPath = async (db: Db, pathId: string): Promise<AttachmentRow | undefined> => {
  const { attachments } = tables(db);
  return first(db.select().from(attachments).where(eq(attachments.pathId, pathId)));
};

export const findAttachmentsByPaths = async (db: Db, realmId: number, pathIds: string[]): Promise<AttachmentRow[]> => {
  const { attachments } = tables(db);
  return pathIds.length
    ? await all(
        db
          .select()
          .from(attachments)
          .where(and(eq(attachments.realmId, realmId), inArray(attachments.pathId, pathIds))),
      )
    : [];
};

/** A user's uploads, newest first. */
export const listOwnAttachments = async (db: Db, ownerId: number): Promise<AttachmentRow[]> => {
  const { attachments } = tables(db);
  return all(db.select().from(attachments).where(eq(attachments.ownerId, ownerId)).orderBy(desc(attachments.id)));
};

/** Bytes the realm's uploads take (for its quota and upload_space_used). */
export const realmUploadBytes = async (db: Db, realmId: number): Promise<number> => {
  const { attachments } = tables(db);
  return (await first(
    db
      .select({ n: sql<number>`coalesce(sum(${attachments.size}), 0)`.mapWith(Number) })
      .from(attachments)
      .where(eq(attachments.realmId, realmId)),
  ))!.n;
};

/** The messages linking each attachment, oldest first: { attachmentId → [{ id, date_sent }] }. */
export async function linkedMessages(db: Db, attachmentIds: number[]): Promise<Map<number, { id: number; dateSent: number }[]>> {
  const { messageAttachments, messages } = tables(db);
  const out = new Map<number, { id: number; dateSent: number }[]>();
  if (!attachmentIds.length) return out;
  const rows = await all(
    db
      .select({ a: messageAttachments.attachmentId, id: messages.id, dateSent: messages.dateSent })
      .from(messageAttachments)
      .innerJoin(messages, eq(messages.id, messageAttachments.messageId))
      .where(inIds(db, messageAttachments.attachmentId, attachmentIds))
      .orderBy(asc(messages.id)),
  );
  for (const r of rows) out.set(r.a, [...(out.get(r.a) ?? []), { id: r.id, dateSent: r.dateSent }]);
  return out;
}

/** Ids of the messages linking one attachment. */
export const linkingMessageIds = async (db: Db, attachmentId: number): Promise<number[]> => {
  const { messageAttachments } = tables(db);
  return (await all(db.select({ id: messageAttachments.messageId }).from(messageAttachments).where(eq(messageAttachments.attachmentId, attachmentId)))).map(
    (r) => r.id,
  );
};

/** Attachment ids a message links. */
export const messageAttachmentIds = async (db: Db, messageIds: number[]): Promise<number[]> => {
  const { messageAttachments } = tables(db);
  return messageIds.length
    ? (
        await all(
          db
            .selectDistinct({ id: messageAttachments.attachmentId })
            .from(messageAttachments)
            .where(inIds(db, messageAttachments.messageId, messageIds)),
        )
      ).map((r) => r.id)
    : [];
};

export const linkAttachments = async (db: Db, messageId: number, attachmentIds: number[]) => {
  const { attachments, messageAttachments } = tables(db);
  if (!attachmentIds.length) return;
  await run(
    db
      .insert(messageAttachments)
      .values(attachmentIds.map((attachmentId) => ({ messageId, attachmentId })))
      .onConflictDoNothing(),
  );
  await run(
    db
      .update(attachments)
      .set({ unreferencedSince: null })
      .where(inIds(db, attachments.id, attachmentIds)),
  );
};

export const unlinkAttachments = async (db: Db, messageIds: number[], attachmentIds?: number[]) => {
  const { messageAttachments } = tables(db);
  if (!messageIds.length) return;
  const byMessage = inIds(db, messageAttachments.messageId, messageIds);
  await run(db.delete(messageAttachments).where(attachmentIds ? and(byMessage, inIds(db, messageAttachments.attachmentId, attachmentIds)) : byMessage));
};

/** Of these attachments, the ones no message links any more: they start their grace period now. */
export async function markUnreferenced(db: Db, attachmentIds: number[], now: number): Promise<number[]> {
  const { attachments, messageAttachments } = tables(db);
  if (!attachmentIds.length) return [];
  const linked = new Set(
    (
      await all(
        db
          .selectDistinct({ id: messageAttachments.attachmentId })
          .from(messageAttachments)
          .where(inIds(db, messageAttachments.attachmentId, attachmentIds)),
      )
    ).map((r) => r.id),
  );
  const orphans = attachmentIds.filter((id) => !linked.has(id));
  if (orphans.length)
    await run(
      db
        .update(attachments)
        .set({ unreferencedSince: now })
        .where(inIds(db, attachments.id, orphans)),
    );
  return orphans;
}

/** Attachments unreferenced since before `cutoff`, at most `limit`. */
export const listExpiredAttachments = async (db: Db, cutoff: number, limit: number): Promise<AttachmentRow[]> => {
  const { attachments } = tables(db);
  return all(
    db
      .select()
      .from(attachments)
      .where(and(isNotNull(attachments.unreferencedSince), lt(attachments.unreferencedSince, cutoff)))
      .limit(limit),
  );
};

export const deleteAttachments = async (db: Db, ids: number[]) => {
  const { attachments } = tables(db);
  if (ids.length) await run(db.delete(attachments).where(inIds(db, attachments.id, ids)));
};
