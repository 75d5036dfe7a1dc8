import { eq } from "drizzle-orm";
import type { Db } from "../db/client";
import { inIds } from "../db/in-ids";
import { botServices } from "../db/schema";
import type { BotService } from "../domain/bots";

const toService = (r: typeof botServices.$inferSelect): BotService => ({ base_url: r.baseUrl, token: r.token, interface: r.interface });

export const findBotService = async (db: Db, botId: number): Promise<BotService | undefined> => {
  const r = db.select().from(botServices).where(eq(botServices.botId, botId)).get();
  return r && toService(r);
};

/** Services of many bots at once, by bot id. */
export async function listBotServices(db: Db, botIds: number[]): Promise<Map<number, BotService>> {
  if (!botIds.length) return new Map();
  return new Map(
    db
      .select()
      .from(botServices)
      .where(inIds(botServices.botId, botIds))
      .all()
      .map((r) => [r.botId, toService(r)]),
  );
}

export const saveBotService = async (db: Db, botId: number, s: BotService) => {
  const row = { botId, baseUrl: s.base_url, token: s.token, interface: s.interface };
  db.insert(botServices).values(row).onConflictDoUpdate({ target: botServices.botId, set: row }).run();
};
