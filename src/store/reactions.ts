import { and, eq } from "drizzle-orm";
import type { Db } from "../db/client";
import { reactions, type ReactionRow } from "../db/schema";

export const findReaction = (db: Db, messageId: number, userId: number, reactionType: string, emojiCode: string): ReactionRow | undefined =>
  db
    .select()
    .from(reactions)
    .where(and(eq(reactions.messageId, messageId), eq(reactions.userId, userId), eq(reactions.reactionType, reactionType), eq(reactions.emojiCode, emojiCode)))
    .get();

/** A user's reaction to a message by emoji name (DELETE may name only the emoji). */
export const findReactionByName = (db: Db, messageId: number, userId: number, emojiName: string): ReactionRow | undefined =>
  db
    .select()
    .from(reactions)
    .where(and(eq(reactions.messageId, messageId), eq(reactions.userId, userId), eq(reactions.emojiName, emojiName)))
    .get();

export const insertReaction = (db: Db, r: typeof reactions.$inferInsert) => db.insert(reactions).values(r).run();

export const deleteReaction = (db: Db, id: number) => db.delete(reactions).where(eq(reactions.id, id)).run();
