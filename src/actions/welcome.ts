// The welcome bot: it greets people who join through an invitation, with the organization's welcome
// text or the invitation's own (welcome_message_custom_text: null means the organization's, "" none),
// and it opens a new organization's #general with a note on inviting people.
import type { App } from "../context";
import type { ChannelRow, RealmRow, UserRow } from "../db/schema";
import type { Tx } from "../db/tx";
import { SYSTEM_BOTS } from "../domain/bots";
import { realmSetting } from "../domain/realm-settings";
import { insertChannelTx } from "./channels";
import { internalBotTx, sendBotMessageTx } from "./messages";
import { customWelcomeMessageCannotBeEmpty, mustBeAdmin } from "../domain/errors";
import { isAdmin } from "../domain/roles";
import { subscribeUsersTx } from "./subscriptions";
import { mapInOrder } from "../lib/in-order";

const welcomeBotTx = async (app: App, tx: Tx, realm: RealmRow) => await internalBotTx(app, tx, realm, SYSTEM_BOTS.welcome);

export async function sendWelcomeTx(app: App, tx: Tx, realm: RealmRow, user: UserRow, inviteText: string | null): Promise<number> {
  const bot = await welcomeBotTx(app, tx, realm);
  const custom = inviteText ?? (realmSetting(realm, "welcome_message_custom_text") as string);
  const greeting = `Hello, and welcome to ${realm.name}! 👋 Say hi in a channel, or reply here with any question.`;
  const content = custom ? `${greeting}\n\n**A message from your organization:**\n\n${custom}` : greeting;
  return await sendBotMessageTx(app, tx, realm, bot, { dmUsers: [bot, user] }, content, "Internal");
}

/** POST /realm/test_welcome_bot_custom_message: an administrator sees the greeting with this text, as a newcomer would. */
export async function sendTestWelcome(app: App, realm: RealmRow, admin: UserRow, text: string) {
  if (!isAdmin(admin.role)) throw mustBeAdmin();
  if (!text.trim()) throw customWelcomeMessageCannotBeEmpty();
  return { message_id: await app.tx(async (tx) => await sendWelcomeTx(app, tx, realm, admin, text)) };
}

const STARTER_CHANNELS = [
  { name: "general", description: "Everyone's channel: announcements and everyday conversation." },
  { name: "sandbox", description: "A place to try things out: formatting, topics, reactions, mentions." },
];

const starterMessage = (realm: RealmRow) => `Welcome to **${realm.name}**! Everyone who joins is subscribed to #**general** and #**sandbox**.

**Invite your team**
- In the web app: open the menu and choose **Invite users** to make an invitation link, then send it to the people you want here. The link opens a sign-up page that leads straight into the app.
- From the server's command line: \`confab user create alice@example.com --name "Alice" --password-stdin\`, then give Alice her password.

Any Zulip app (desktop, mobile, terminal) can sign in too, with this server's URL, an email and a password.

Try things out in #**sandbox**: a new topic, **bold** text, an emoji reaction, an @-mention.`;

/**
 * A new organization's first content, as Zulip starts one: #general and #sandbox (default channels,
 * so everyone who joins is subscribed), the owner in both, and the welcome bot's note in #general.
 */
export async function createStarterContentTx(app: App, tx: Tx, realm: RealmRow, owner: UserRow): Promise<{ general: ChannelRow; sandbox: ChannelRow }> {
  const [general, sandbox] = (await mapInOrder(
    STARTER_CHANNELS,
    async (c) => await insertChannelTx(app, tx, realm, owner, { ...c, inviteOnly: false, isWebPublic: false, isDefault: true, settings: {} }),
  )) as [ChannelRow, ChannelRow];
  await subscribeUsersTx(app, tx, realm, [general, sandbox], [owner]);
  await sendBotMessageTx(
    app,
    tx,
    realm,
    await welcomeBotTx(app, tx, realm),
    { channel: general, topic: "welcome to confab" },
    starterMessage(realm),
    "Internal",
  );
  return { general, sandbox };
}
