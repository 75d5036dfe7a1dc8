import { toApiPlayground } from "../../domain/realm-playgrounds";
import { listPlaygrounds } from "../../store/realm-playgrounds";
import type { StateBuilder } from "./types";

/** `realm_playgrounds`: the organization's code playgrounds. */
export const realmPlaygroundsState: StateBuilder = async ({ app, realm }) => ({
  realm_playgrounds: (await listPlaygrounds(app.db, realm.id)).map(toApiPlayground),
});
