import { and, asc, eq } from "drizzle-orm";
import type { Db } from "../db/client";
import { submessages, type SubmessageRow } from "../db/schema";

export const insertSubmessage = async (db: Db, s: Omit<SubmessageRow, "id">): Promise<SubmessageRow> => db.insert(submessages).values(s).returning().get();

/** The message's first widget submessage (the one that declared the widget). */
export const firstWidgetSubmessage = async (db: Db, messageId: number): Promise<SubmessageRow | undefined> =>
  db
    .select()
    .from(submessages)
    .where(and(eq(submessages.messageId, messageId), eq(submessages.msgType, "widget")))
    .orderBy(asc(submessages.id))
    .get();

export const hasSubmessageFrom = async (db: Db, messageId: number, senderId: number): Promise<boolean> =>
  !!db
    .select({ id: submessages.id })
    .from(submessages)
    .where(and(eq(submessages.messageId, messageId), eq(submessages.senderId, senderId)))
    .get();
