import { eq } from "drizzle-orm";
import type { Db } from "../db/client";
import { tables } from "../db/engine";
import { first, run } from "../db/query";

/** The realm's stored defaults for new users (only values that differ from the table's defaults). */
export const findRealmUserDefaults = async (db: Db, realmId: number): Promise<Record<string, unknown>> => {
  const { realmUserDefaults } = tables(db);
  return (await first(db.select().from(realmUserDefaults).where(eq(realmUserDefaults.realmId, realmId))))?.settings ?? {};
};

export const saveRealmUserDefaults = async (db: Db, realmId: number, settings: Record<string, unknown>) => {
  const { realmUserDefaults } = tables(db);
  return run(db.insert(realmUserDefaults).values({ realmId, settings }).onConflictDoUpdate({ target: realmUserDefaults.realmId, set: { settings } }));
};
