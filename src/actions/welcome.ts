// The welcome bot greets people who join through an invitation, with the organization's welcome text
// or the invitation's own (welcome_message_custom_text: null means the organization's, "" none).
import type { App } from "../app";
import type { RealmRow, UserRow } from "../db/schema";
import type { Tx } from "../db/tx";
import { SYSTEM_BOTS } from "../domain/bots";
import { realmSetting } from "../domain/realm-settings";
import { internalBotTx, sendBotReplyTx } from "./messages";
import { invalidParam, mustBeAdmin } from "../domain/errors";
import { isAdmin } from "../domain/roles";

export function sendWelcomeTx(app: App, tx: Tx, realm: RealmRow, user: UserRow, inviteText: string | null): number {
  const bot = internalBotTx(app, tx, realm, SYSTEM_BOTS.welcome);
  const custom = inviteText ?? (realmSetting(realm, "welcome_message_custom_text") as string);
  const greeting = `Hello, and welcome to ${realm.name}! 👋 Say hi in a channel, or reply here with any question.`;
  const content = custom ? `${greeting}\n\n**A message from your organization:**\n\n${custom}` : greeting;
  return sendBotReplyTx(app, tx, realm, bot, { dmUsers: [bot, user] }, content, "Internal");
}

/** POST /realm/test_welcome_bot_custom_message: an administrator sees the greeting with this text, as a newcomer would. */
export function sendTestWelcome(app: App, realm: RealmRow, admin: UserRow, text: string) {
  if (!isAdmin(admin.role)) throw mustBeAdmin();
  if (!text.trim()) throw invalidParam("Custom welcome message cannot be empty.");
  return { message_id: app.tx((tx) => sendWelcomeTx(app, tx, realm, admin, text)) };
}
