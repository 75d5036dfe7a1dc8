import { visiblePluginObjects } from "../../serializers/plugins";
import { isGuest } from "../../domain/roles";
import type { StateBuilder } from "./types";

/** `ext_plugin` (as `ext_plugins`): the installs the user may see (as GET /ext/plugins); none for guests and spectators. */
export const extPluginsState: StateBuilder = async ({ app, realm, user }) => ({
  ext_plugins: user && !isGuest(user.role) ? await visiblePluginObjects(app, realm, user) : [],
});
