import { and, eq } from "drizzle-orm";
import type { Db } from "../db/client";
import { tables } from "../db/engine";
import { first, all, run } from "../db/query";

export const insertDevice = async (db: Db, userId: number, now: number) => {
  const { clientDevices } = tables(db);
  return first(db.insert(clientDevices).values({ userId, dateCreated: now }).returning());
};

export const findDevice = async (db: Db, userId: number, id: number) => {
  const { clientDevices } = tables(db);
  return first(
    db
      .select()
      .from(clientDevices)
      .where(and(eq(clientDevices.id, id), eq(clientDevices.userId, userId))),
  );
};

export const deleteDevice = async (db: Db, id: number) => {
  const { clientDevices } = tables(db);
  return run(db.delete(clientDevices).where(eq(clientDevices.id, id)));
};

export const listDevices = async (db: Db, userId: number) => {
  const { clientDevices } = tables(db);
  return all(db.select().from(clientDevices).where(eq(clientDevices.userId, userId)));
};
