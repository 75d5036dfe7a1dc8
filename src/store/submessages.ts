import { and, asc, eq } from "drizzle-orm";
import type { Db } from "../db/client";
import { type SubmessageRow } from "../db/schema";
import { tables } from "../db/engine";
import { first } from "../db/query";

export const insertSubmessage = async (db: Db, s: Omit<SubmessageRow, "id">): Promise<SubmessageRow> => {
  const { submessages } = tables(db);
  return first(db.insert(submessages).values(s).returning());
};

/** The message's first widget submessage (the one that declared the widget). */
export const firstWidgetSubmessage = async (db: Db, messageId: number): Promise<SubmessageRow | undefined> => {
  const { submessages } = tables(db);
  return first(
    db
      .select()
      .from(submessages)
      .where(and(eq(submessages.messageId, messageId), eq(submessages.msgType, "widget")))
      .orderBy(asc(submessages.id)),
  );
};

export const hasSubmessageFrom = async (db: Db, messageId: number, senderId: number): Promise<boolean> => {
  const { submessages } = tables(db);
  return !!(await first(
    db
      .select({ id: submessages.id })
      .from(submessages)
      .where(and(eq(submessages.messageId, messageId), eq(submessages.senderId, senderId))),
  ));
};
