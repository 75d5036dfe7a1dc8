import type { UserRow } from "../db/schema";
import { avatarUrl } from "./users";

// Bot types, as Zulip numbers them.
export const BOT_TYPE = { generic: 1, incomingWebhook: 2, outgoingWebhook: 3, embedded: 4 } as const;

/**
 * The server's own bots (Zulip's cross-realm system bots). Each realm gets its copy on first use; clients
 * see them in register's cross_realm_bots rather than among the realm's users.
 */
export const SYSTEM_BOTS = {
  notification: { email: "notification-bot@confab.localhost", fullName: "Notification Bot" },
  welcome: { email: "welcome-bot@confab.localhost", fullName: "Welcome Bot" },
} as const;

const SYSTEM_BOT_EMAILS: ReadonlySet<string> = new Set(Object.values(SYSTEM_BOTS).map((b) => b.email));
export const isSystemBot = (u: UserRow) => u.isBot && SYSTEM_BOT_EMAILS.has(u.email);

export interface BotService {
  base_url: string;
  token: string;
  interface: number;
}

/** A bot as its owner and administrators see it (register's realm_bots, realm_bot events). */
export const toApiBot = (b: UserRow, externalUrl: string, services: BotService[] = []) => ({
  user_id: b.id,
  full_name: b.fullName,
  email: b.email,
  bot_type: b.botType,
  is_active: b.isActive,
  api_key: b.apiKey,
  avatar_url: avatarUrl(b, externalUrl),
  owner_id: b.botOwnerId,
  default_sending_stream: null,
  default_events_register_stream: null,
  default_all_public_streams: false,
  services,
});
