// Bot objects for realm_bot events and register, and who hears of a bot: its owner and the administrators.
import type { Db } from "../db/client";
import type { UserRow } from "../db/schema";
import type { Tx } from "../db/tx";
import { BOT_TYPE, toApiBot, type BotService } from "../domain/bots";
import { isAdmin } from "../domain/roles";
import { toUsers, type Audience } from "../events/types";
import { findBotService, listBotServices } from "../store/bots";
import { listAdminIds, listUsers } from "../store/users";

/** realm_bot events reach the bot's owner and the realm's administrators. */
export async function botAudience(tx: Tx, bot: UserRow): Promise<Audience> {
  const ids = new Set(await listAdminIds(tx.db, bot.realmId));
  if (bot.botOwnerId !== null) ids.add(bot.botOwnerId);
  return toUsers([...ids]);
}

/** `add` carries the whole bot; `remove` (deactivation) only who it was. */
export async function botEvent(op: "add" | "remove", bot: UserRow, externalUrl = "", db?: Db) {
  return op === "add"
    ? { type: "realm_bot", op, bot: toApiBot(bot, externalUrl, await servicesOf(db, bot)) }
    : { type: "realm_bot", op, bot: { user_id: bot.id, full_name: bot.fullName } };
}

const servicesOf = async (db: Db | undefined, bot: UserRow): Promise<BotService[]> => {
  const s = db && bot.botType === BOT_TYPE.outgoingWebhook ? await findBotService(db, bot.id) : undefined;
  return s ? [s] : [];
};

/** The bots whose keys a user may see: their own, or every bot for administrators (register's realm_bots). */
export async function visibleBots(db: Db, user: UserRow, externalUrl: string) {
  const bots = (await listUsers(db, user.realmId)).filter((u) => u.isBot && (isAdmin(user.role) || u.botOwnerId === user.id));
  const services = await listBotServices(
    db,
    bots.map((b) => b.id),
  );
  return bots.map((b) => toApiBot(b, externalUrl, services.has(b.id) ? [services.get(b.id)!] : []));
}
