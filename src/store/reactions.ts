import { and, eq } from "drizzle-orm";
import type { Db } from "../db/client";
import { type reactions, type ReactionRow } from "../db/schema";
import { tables } from "../db/engine";
import { first, run } from "../db/query";

export const findReaction = async (db: Db, messageId: number, userId: number, reactionType: string, emojiCode: string): Promise<ReactionRow | undefined> => {
  const { reactions } = tables(db);
  return first(
    db
      .select()
      .from(reactions)
      .where(
        and(eq(reactions.messageId, messageId), eq(reactions.userId, userId), eq(reactions.reactionType, reactionType), eq(reactions.emojiCode, emojiCode)),
      ),
  );
};

/** A user's reaction to a message by emoji name (DELETE may name only the emoji). */
export const findReactionByName = async (db: Db, messageId: number, userId: number, emojiName: string): Promise<ReactionRow | undefined> => {
  const { reactions } = tables(db);
  return first(
    db
      .select()
      .from(reactions)
      .where(and(eq(reactions.messageId, messageId), eq(reactions.userId, userId), eq(reactions.emojiName, emojiName))),
  );
};

export const insertReaction = async (db: Db, r: typeof reactions.$inferInsert) => {
  const { reactions } = tables(db);
  return run(db.insert(reactions).values(r));
};

export const deleteReaction = async (db: Db, id: number) => {
  const { reactions } = tables(db);
  return run(db.delete(reactions).where(eq(reactions.id, id)));
};
