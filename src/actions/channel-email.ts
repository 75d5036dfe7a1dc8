// GET /streams/{stream_id}/email_address: Zulip's channel address, in Zulip's form
// (<channel>.<token>.show-sender@<host>). confab offers no email gateway, so the address only informs:
// mail sent to it is not delivered (README, "Email").
import type { App } from "../context";
import type { UserRow } from "../db/schema";
import { insufficientPermission, invalidChannelId, noSuchBot } from "../domain/errors";
import { isAdmin } from "../domain/roles";
import { findUserById } from "../store/users";
import { accessChannelById, hasChannelPermission } from "../access/channels";

export async function channelEmailAddress(app: App, user: UserRow, channelId: number, senderId?: number) {
  const { channel } = await accessChannelById(app, user, channelId, { content: true });
  // Only those who may post in the channel may learn its address (Zulip 12.0, level 448).
  if (!(await hasChannelPermission(app, user, channel, "can_send_message_group"))) throw invalidChannelId();
  let sender = "gateway";
  if (senderId !== undefined && senderId !== user.id) {
    const bot = await findUserById(app.db, senderId);
    if (!bot || bot.realmId !== user.realmId || !bot.isBot) throw noSuchBot();
    if (bot.botOwnerId !== user.id && !isAdmin(user.role)) throw insufficientPermission();
    sender = String(bot.id);
  } else if (senderId !== undefined) sender = String(user.id);
  const name = channel.name
    .replace(/[^\p{L}\p{N}_]+/gu, "-")
    .toLowerCase()
    .replace(/^-+|-+$/g, "");
  const token = new Bun.CryptoHasher("sha256").update(`${channel.realmId}:${channel.id}:${sender}`).digest("hex").slice(0, 32);
  return { email: `${name}.${token}.show-sender@${new URL(app.config.externalUrl).hostname}` };
}
