import { eq } from "drizzle-orm";
import type { Db } from "../db/client";
import { inIds } from "../db/in-ids";
import { type botServices } from "../db/schema";
import { tables } from "../db/engine";
import { first, all, run } from "../db/query";
import type { BotService } from "../domain/bots";

const toService = (r: typeof botServices.$inferSelect): BotService => ({ base_url: r.baseUrl, token: r.token, interface: r.interface });

export const findBotService = async (db: Db, botId: number): Promise<BotService | undefined> => {
  const { botServices } = tables(db);
  const r = await first(db.select().from(botServices).where(eq(botServices.botId, botId)));
  return r && toService(r);
};

/** Services of many bots at once, by bot id. */
export async function listBotServices(db: Db, botIds: number[]): Promise<Map<number, BotService>> {
  const { botServices } = tables(db);
  if (!botIds.length) return new Map();
  return new Map(
    (
      await all(
        db
          .select()
          .from(botServices)
          .where(inIds(db, botServices.botId, botIds)),
      )
    ).map((r) => [r.botId, toService(r)]),
  );
}

export const saveBotService = async (db: Db, botId: number, s: BotService) => {
  const { botServices } = tables(db);
  const row = { botId, baseUrl: s.base_url, token: s.token, interface: s.interface };
  await run(db.insert(botServices).values(row).onConflictDoUpdate({ target: botServices.botId, set: row }));
};
