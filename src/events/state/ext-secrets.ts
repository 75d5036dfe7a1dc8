import { toApiSecret } from "../../domain/secrets";
import { isGuest } from "../../domain/roles";
import { listSecrets } from "../../store/secrets";
import type { StateBuilder } from "./types";

/** `ext_secret` (as `ext_secrets`): the organization's secrets without values, for its human members (others: none). */
export const extSecretsState: StateBuilder = async ({ app, realm, user }) => ({
  ext_secrets: user && !user.isBot && !isGuest(user.role) ? (await listSecrets(app.db, realm.id)).map(toApiSecret) : [],
});
