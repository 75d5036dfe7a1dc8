import type { RealmRow } from "../db/schema";

/** Whether unauthenticated visitors may read the realm's web-public channels. */
export const spectatorsAllowed = (realm: RealmRow) => realm.settings.enable_spectator_access === true;
