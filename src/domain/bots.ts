import type { UserRow } from "../db/schema";
import { avatarUrl } from "./users";

// Bot types, as Zulip numbers them.
export const BOT_TYPE = { generic: 1, incomingWebhook: 2, outgoingWebhook: 3, embedded: 4 } as const;

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
