import { eq } from "drizzle-orm";
import type { Db } from "../db/client";
import { realmUserDefaults } from "../db/schema";

/** The realm's stored defaults for new users (only values that differ from the table's defaults). */
export const findRealmUserDefaults = async (db: Db, realmId: number): Promise<Record<string, unknown>> =>
  db.select().from(realmUserDefaults).where(eq(realmUserDefaults.realmId, realmId)).get()?.settings ?? {};

export const saveRealmUserDefaults = async (db: Db, realmId: number, settings: Record<string, unknown>) =>
  db.insert(realmUserDefaults).values({ realmId, settings }).onConflictDoUpdate({ target: realmUserDefaults.realmId, set: { settings } }).run();
