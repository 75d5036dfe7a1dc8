import { and, eq } from "drizzle-orm";
import type { Db } from "../db/client";
import { clientDevices } from "../db/schema";

export const insertDevice = async (db: Db, userId: number, now: number) => db.insert(clientDevices).values({ userId, dateCreated: now }).returning().get();

export const findDevice = async (db: Db, userId: number, id: number) =>
  db
    .select()
    .from(clientDevices)
    .where(and(eq(clientDevices.id, id), eq(clientDevices.userId, userId)))
    .get();

export const deleteDevice = async (db: Db, id: number) => db.delete(clientDevices).where(eq(clientDevices.id, id)).run();

export const listDevices = async (db: Db, userId: number) => db.select().from(clientDevices).where(eq(clientDevices.userId, userId)).all();
