import type { Tx } from "../db/tx";
import type { UserRow } from "../db/schema";
import { toApiBot } from "../domain/bots";
import { toUsers, type Audience } from "../events/types";
import { listAdminIds } from "../store/users";

/** realm_bot events reach the bot's owner and the realm's administrators. */
export function botAudience(tx: Tx, bot: UserRow): Audience {
  const ids = new Set(listAdminIds(tx.db, bot.realmId));
  if (bot.botOwnerId !== null) ids.add(bot.botOwnerId);
  return toUsers([...ids]);
}

/** `add` carries the whole bot; `remove` (deactivation) only who it was. */
export function botEvent(op: "add" | "remove", bot: UserRow, externalUrl = "") {
  return op === "add"
    ? { type: "realm_bot", op, bot: toApiBot(bot, externalUrl) }
    : { type: "realm_bot", op, bot: { user_id: bot.id, full_name: bot.fullName } };
}
