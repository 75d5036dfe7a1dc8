import type { App } from "../context";
import type { RealmRow, UserRow } from "../db/schema";
import { BOT_TYPE, type BotService } from "../domain/bots";
import {
  failedChangeOwnerBotsCant,
  failedChangeOwnerNoSuch,
  failedChangeOwnerUserDeactivated,
  guestsRefused,
  insufficientPermission,
  invalidBotType,
  invalidEmail,
  invalidInterfaceType,
  invalidParam,
  noSuchBot,
  payloadUrlNotUrl,
  servicePayloadUrlNotUrl,
  targetUserDeactivated,
  usernameAlreadyUse,
} from "../domain/errors";
import { realmUrl } from "../domain/realms";
import { isAdmin, isGuest } from "../domain/roles";
import { avatarUrl, checkFullName, isValidEmail } from "../domain/users";
import { toRealm, toUsers } from "../events/types";
import { randomToken } from "../lib/random";
import { findBotService, saveBotService } from "../store/bots";
import { hasRealmPermission } from "../store/permissions";
import { findUserByEmail, findUserById, listAdminIds, listUsers, updateUser } from "../store/users";
import { deactivateUser, insertUserTx } from "./users";
import { botAudience, botEvent } from "../serializers/bots";
import { p, Param, type Args } from "../domain/params";

/** A bot the actor may administer: its owner or an administrator (Zulip's access_bot_by_id). */
async function botForAdmin(app: App, actor: UserRow, id: number): Promise<UserRow> {
  const bot = await findUserById(app.db, id);
  if (!bot || bot.realmId !== actor.realmId || !bot.isBot) throw noSuchBot();
  if (!isAdmin(actor.role) && bot.botOwnerId !== actor.id) throw insufficientPermission();
  return bot;
}

/** Zulip declares payload URLs as JSON strings; clients send them encoded or bare, so both are read. */
const url = () =>
  new Param<string>((raw) => {
    try {
      const v = JSON.parse(String(raw));
      if (typeof v === "string") return v;
    } catch {}
    return String(raw);
  }, "string");

export const newBotParams = {
  full_name: p.str(),
  short_name: p.str(),
  bot_type: p.int().optional(1),
  payload_url: url().optional(),
  interface_type: p.int().optional(1),
};
export type NewBot = Args<typeof newBotParams>;

/**
 * POST /bots: generic and outgoing webhook bots need can_create_bots_group; incoming webhook bots
 * either that or can_create_write_only_bots_group. The bot's email is <short_name>-bot@<bot domain>.
 */
export async function createBot(app: App, realm: RealmRow, owner: UserRow, a: NewBot) {
  if (isGuest(owner.role)) throw guestsRefused();
  if (![BOT_TYPE.generic, BOT_TYPE.incomingWebhook, BOT_TYPE.outgoingWebhook].includes(a.bot_type as never)) throw invalidBotType();
  const may =
    (await hasRealmPermission(app.db, realm, owner, "can_create_bots_group")) ||
    (a.bot_type === BOT_TYPE.incomingWebhook && (await hasRealmPermission(app.db, realm, owner, "can_create_write_only_bots_group")));
  if (!may) throw insufficientPermission();
  const name = checkFullName(a.full_name);
  if (!name.ok) throw invalidParam(name.msg);
  const short = a.short_name.trim();
  const domain = new URL(realmUrl(app.config.externalUrl, realm.stringId)).hostname;
  const email = `${short}-bot@${domain}`;
  if (!short || !isValidEmail(email)) throw invalidEmail();
  if (await findUserByEmail(app.db, realm.id, email)) throw usernameAlreadyUse();
  let service: BotService | undefined;
  if (a.bot_type === BOT_TYPE.outgoingWebhook) {
    if (!a.payload_url || !/^https?:\/\/\S+$/i.test(a.payload_url)) throw payloadUrlNotUrl();
    if (![1, 2].includes(a.interface_type)) throw invalidInterfaceType();
    service = { base_url: a.payload_url, token: randomToken(32), interface: a.interface_type };
  }
  return await app.tx(async (tx) => {
    const bot = await insertUserTx(app, tx, realm, { email, fullName: name.name, isBot: true, botType: a.bot_type, botOwnerId: owner.id }, null);
    if (service) await saveBotService(tx.db, bot.id, service);
    tx.emit(await botEvent("add", bot, app.config.externalUrl, tx.db), await botAudience(tx, bot));
    return {
      user_id: bot.id,
      api_key: bot.apiKey,
      avatar_url: avatarUrl(bot, app.config.externalUrl),
      default_sending_stream: null,
      default_events_register_stream: null,
      default_all_public_streams: false,
    };
  });
}

/** GET /bots: the caller's own active bots. */
export async function listOwnBots(app: App, user: UserRow) {
  const bots = (await listUsers(app.db, user.realmId)).filter((u) => u.isBot && u.isActive && u.botOwnerId === user.id);
  return {
    bots: bots.map((b) => ({
      username: b.email,
      full_name: b.fullName,
      api_key: b.apiKey,
      avatar_url: avatarUrl(b, app.config.externalUrl),
      default_sending_stream: null,
      default_events_register_stream: null,
      default_all_public_streams: false,
    })),
  };
}

export const botPatchParams = {
  full_name: p.str().optional(),
  bot_owner_id: p.int().optional(),
  service_payload_url: url().optional(),
  service_interface: p.int().optional(),
};
type BotPatch = Args<typeof botPatchParams>;

/** PATCH /bots/{bot_id}: name, owner and outgoing webhook service, by the owner or an administrator. */
export async function updateBot(app: App, realm: RealmRow, actor: UserRow, id: number, a: BotPatch) {
  const bot = await botForAdmin(app, actor, id);
  const patch: Partial<UserRow> = {};
  if (a.full_name !== undefined && a.full_name.trim() !== bot.fullName) {
    const name = checkFullName(a.full_name);
    if (!name.ok) throw invalidParam(name.msg);
    patch.fullName = name.name;
  }
  if (a.bot_owner_id !== undefined && a.bot_owner_id !== bot.botOwnerId) {
    const owner = await findUserById(app.db, a.bot_owner_id);
    if (!owner || owner.realmId !== realm.id) throw failedChangeOwnerNoSuch();
    if (!owner.isActive) throw failedChangeOwnerUserDeactivated();
    if (owner.isBot) throw failedChangeOwnerBotsCant();
    patch.botOwnerId = owner.id;
  }
  let service: BotService | undefined;
  if (bot.botType === BOT_TYPE.outgoingWebhook && (a.service_payload_url !== undefined || a.service_interface !== undefined)) {
    const current = (await findBotService(app.db, bot.id))!;
    if (a.service_payload_url !== undefined && !/^https?:\/\/\S+$/i.test(a.service_payload_url)) throw servicePayloadUrlNotUrl();
    if (a.service_interface !== undefined && ![1, 2].includes(a.service_interface)) throw invalidInterfaceType();
    service = { ...current, base_url: a.service_payload_url ?? current.base_url, interface: a.service_interface ?? current.interface };
  }
  if (!Object.keys(patch).length && !service) return {};
  await app.tx(async (tx) => {
    const row = Object.keys(patch).length ? await updateUser(tx.db, bot.id, patch) : bot;
    if (patch.botOwnerId !== undefined) {
      const admins = new Set(await listAdminIds(tx.db, realm.id));
      // The previous owner stops seeing the bot's key; the new one starts.
      if (bot.botOwnerId !== null && !admins.has(bot.botOwnerId))
        tx.emit({ type: "realm_bot", op: "delete", bot: { user_id: bot.id } }, toUsers([bot.botOwnerId]));
      if (!admins.has(row.botOwnerId!)) tx.emit(await botEvent("add", row, app.config.externalUrl, tx.db), toUsers([row.botOwnerId!]));
      tx.emit({ type: "realm_bot", op: "update", bot: { user_id: bot.id, owner_id: row.botOwnerId } }, toUsers([...admins]));
      tx.emit({ type: "realm_user", op: "update", person: { user_id: bot.id, bot_owner_id: row.botOwnerId } }, toRealm(realm.id));
    }
    if (patch.fullName !== undefined) {
      tx.emit({ type: "realm_bot", op: "update", bot: { user_id: bot.id, full_name: row.fullName } }, await botAudience(tx, row));
      tx.emit({ type: "realm_user", op: "update", person: { user_id: bot.id, full_name: row.fullName } }, toRealm(realm.id));
    }
    if (service) {
      await saveBotService(tx.db, bot.id, service);
      tx.emit({ type: "realm_bot", op: "update", bot: { user_id: bot.id, services: [service] } }, await botAudience(tx, row));
    }
  });
  return {};
}

/** DELETE /bots/{bot_id}: deactivates the bot. */
export async function deactivateBot(app: App, actor: UserRow, id: number) {
  const bot = await botForAdmin(app, actor, id);
  if (!bot.isActive) throw targetUserDeactivated();
  await deactivateUser(app, bot);
  return {};
}

/** POST /bots/{bot_id}/api_key/regenerate: the old key stops working and the bot's queues are dropped. */
export async function regenerateBotApiKey(app: App, actor: UserRow, id: number) {
  const bot = await botForAdmin(app, actor, id);
  const apiKey = randomToken(32);
  await app.tx(async (tx) => {
    const row = await updateUser(tx.db, bot.id, { apiKey });
    tx.emit({ type: "realm_bot", op: "update", bot: { user_id: bot.id, api_key: apiKey } }, await botAudience(tx, row));
  });
  app.revoke({ userId: bot.id });
  return { api_key: apiKey };
}
