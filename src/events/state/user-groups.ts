import { realmGroupObjects } from "../../serializers/user-groups";
import type { StateBuilder } from "./types";

/** `realm_user_groups`: every group with its direct members and subgroups. Without the
 * include_deactivated_groups capability a client gets only active groups (level 294). */
export const userGroupsState: StateBuilder = async ({ app, realm, user, opts }) => ({
  // Spectators see no one's memberships.
  realm_user_groups: user ? await realmGroupObjects(app.db, realm.id, opts.capabilities.include_deactivated_groups === true) : [],
});
