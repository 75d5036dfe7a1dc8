import type { RealmRow } from "../db/schema";
import { realmSetting } from "./realm-settings";

/** Whether unauthenticated visitors may read the realm's web-public channels. */
export const spectatorsAllowed = (realm: RealmRow) => realmSetting(realm, "enable_spectator_access") === true;
