import { INTEGRATIONS, toApiIntegration } from "../../integrations";
import type { StateBuilder } from "./types";

/** `realm_incoming_webhook_bots`: the integrations this server has, for the bot page's URL builder. */
export const integrationsState: StateBuilder = () => ({ realm_incoming_webhook_bots: INTEGRATIONS.map(toApiIntegration) });
