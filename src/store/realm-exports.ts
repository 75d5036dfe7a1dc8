// Data exports: their rows, and the realm's history read whole for an export's files.
import { and, asc, eq, isNull } from "drizzle-orm";
import type { Db } from "../db/client";
import { type realmExports, type RealmExportRow } from "../db/schema";
import { tables } from "../db/engine";
import { first, all } from "../db/query";
import { raw } from "../db/raw";
import { pushTo } from "../lib/collections";
import type { ArchiveChannel, ArchiveFile, ArchiveMessage, ArchiveReaction, ArchiveUser } from "../domain/realm-archive";

export const insertRealmExport = async (db: Db, r: typeof realmExports.$inferInsert): Promise<RealmExportRow> => {
  const { realmExports } = tables(db);
  return first(db.insert(realmExports).values(r).returning());
};

export const updateRealmExport = async (db: Db, id: number, patch: Partial<typeof realmExports.$inferInsert>): Promise<RealmExportRow> => {
  const { realmExports } = tables(db);
  return first(db.update(realmExports).set(patch).where(eq(realmExports.id, id)).returning());
};

export const listRealmExports = async (db: Db, realmId: number): Promise<RealmExportRow[]> => {
  const { realmExports } = tables(db);
  return all(db.select().from(realmExports).where(eq(realmExports.realmId, realmId)).orderBy(asc(realmExports.id)));
};

export const findRealmExport = async (db: Db, realmId: number, id: number): Promise<RealmExportRow | undefined> => {
  const { realmExports } = tables(db);
  return first(
    db
      .select()
      .from(realmExports)
      .where(and(eq(realmExports.realmId, realmId), eq(realmExports.id, id))),
  );
};

/** Exports that were under way when the server stopped (they will never finish). */
export const listPendingExports = async (db: Db): Promise<RealmExportRow[]> => {
  const { realmExports } = tables(db);
  return all(
    db
      .select()
      .from(realmExports)
      .where(and(isNull(realmExports.dateSucceeded), isNull(realmExports.dateFailed), isNull(realmExports.dateDeleted))),
  );
};

// ---- The realm's history, in the archive's shape ----

export const archiveUsers = async (db: Db, realmId: number): Promise<ArchiveUser[]> =>
  (
    await raw(db).all<any>(
      `SELECT id, email, full_name AS "fullName", role, is_active AS "isActive", is_bot AS "isBot", bot_type AS "botType",
         bot_owner_id AS "botOwnerId", date_joined AS "dateJoined", timezone FROM users WHERE realm_id = ? ORDER BY id`,
      realmId,
    )
  ).map((u) => ({ ...u, isActive: !!u.isActive, isBot: !!u.isBot }));

export async function archiveChannels(db: Db, realmId: number): Promise<ArchiveChannel[]> {
  const s = raw(db);
  const subs = new Map<number, ArchiveChannel["subscribers"]>();
  for (const x of await s.all<any>(
    `SELECT s.channel_id AS "channelId", s.user_id AS "userId", s.active, s.color, s.is_muted AS "isMuted", s.pin_to_top AS "pinToTop"
       FROM subscriptions s JOIN channels c ON c.id = s.channel_id WHERE c.realm_id = ? ORDER BY s.user_id`,
    realmId,
  ))
    pushTo(subs, x.channelId, { userId: x.userId, active: !!x.active, color: x.color, isMuted: !!x.isMuted, pinToTop: !!x.pinToTop });
  return (
    await s.all<any>(
      `SELECT c.id, c.name, c.description, c.invite_only AS "inviteOnly", c.history_public_to_subscribers AS "historyPublicToSubscribers",
         c.is_web_public AS "isWebPublic", c.date_created AS "dateCreated", c.creator_id AS "creatorId", c.is_archived AS "isArchived",
         EXISTS (SELECT 1 FROM default_channels d WHERE d.channel_id = c.id) AS "isDefault"
       FROM channels c WHERE c.realm_id = ? ORDER BY c.id`,
      realmId,
    )
  ).map((c) => ({
    ...c,
    inviteOnly: !!c.inviteOnly,
    historyPublicToSubscribers: !!c.historyPublicToSubscribers,
    isWebPublic: !!c.isWebPublic,
    isArchived: !!c.isArchived,
    isDefault: !!c.isDefault,
    subscribers: subs.get(c.id) ?? [],
  }));
}

/** Every message of the realm with its per-user flags, oldest first (channel rows must be delivered first). */
export async function archiveMessages(db: Db, realmId: number): Promise<ArchiveMessage[]> {
  const s = raw(db);
  const flags = new Map<number, [number, number][]>();
  for (const r of await s.all<{ m: number; u: number; f: number }>(
    "SELECT um.message_id AS m, um.user_id AS u, um.flags AS f FROM user_messages um JOIN messages m ON m.id = um.message_id WHERE m.realm_id = ? ORDER BY um.message_id, um.user_id",
    realmId,
  )) {
    pushTo(flags, r.m, [r.u, r.f]);
  }
  return (
    await s.all<any>(
      `SELECT m.id, m.sender_id AS "senderId", c.id AS "channelId", r.dm_key AS "dmKey", m.topic, m.content, m.rendered_content AS "renderedContent",
         m.date_sent AS "dateSent", m.client, m.last_edit_time AS "lastEditTime"
       FROM messages m JOIN recipients r ON r.id = m.recipient_id LEFT JOIN channels c ON c.recipient_id = r.id
       WHERE m.realm_id = ? ORDER BY m.id`,
      realmId,
    )
  ).map(({ dmKey, ...m }) => ({ ...m, dmUserIds: dmKey ? String(dmKey).split(",").map(Number) : null, flags: flags.get(m.id) ?? [] }));
}

export const archiveReactions = async (db: Db, realmId: number): Promise<ArchiveReaction[]> =>
  await raw(db).all<ArchiveReaction>(
    `SELECT x.message_id AS "messageId", x.user_id AS "userId", x.emoji_name AS "emojiName", x.emoji_code AS "emojiCode", x.reaction_type AS "reactionType"
       FROM reactions x JOIN messages m ON m.id = x.message_id WHERE m.realm_id = ? ORDER BY x.id`,
    realmId,
  );

/** The realm's uploads, with the messages linking each. */
export async function archiveFiles(db: Db, realmId: number): Promise<ArchiveFile[]> {
  const s = raw(db);
  const links = new Map<number, number[]>();
  for (const r of await s.all<{ a: number; m: number }>(
    "SELECT ma.attachment_id AS a, ma.message_id AS m FROM message_attachments ma JOIN attachments a ON a.id = ma.attachment_id WHERE a.realm_id = ? ORDER BY ma.message_id",
    realmId,
  ))
    pushTo(links, r.a, r.m);
  return (
    await s.all<any>(
      `SELECT id, owner_id AS "ownerId", name, path_id AS source, size, create_time AS "createTime", content_type AS "contentType" FROM attachments WHERE realm_id = ? ORDER BY id`,
      realmId,
    )
  ).map((a) => ({ ...a, messageIds: links.get(a.id) ?? [] }));
}
