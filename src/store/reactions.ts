import { and, eq } from "drizzle-orm";
import type { Db } from "../db/client";
import { reactions, type ReactionRow } from "../db/schema";

export const findReaction = async (db: Db, messageId: number, userId: number, reactionType: string, emojiCode: string): Promise<ReactionRow | undefined> =>
  db
    .select()
    .from(reactions)
    .where(and(eq(reactions.messageId, messageId), eq(reactions.userId, userId), eq(reactions.reactionType, reactionType), eq(reactions.emojiCode, emojiCode)))
    .get();

/** A user's reaction to a message by emoji name (DELETE may name only the emoji). */
export const findReactionByName = async (db: Db, messageId: number, userId: number, emojiName: string): Promise<ReactionRow | undefined> =>
  db
    .select()
    .from(reactions)
    .where(and(eq(reactions.messageId, messageId), eq(reactions.userId, userId), eq(reactions.emojiName, emojiName)))
    .get();

export const insertReaction = async (db: Db, r: typeof reactions.$inferInsert) => db.insert(reactions).values(r).run();

export const deleteReaction = async (db: Db, id: number) => db.delete(reactions).where(eq(reactions.id, id)).run();
