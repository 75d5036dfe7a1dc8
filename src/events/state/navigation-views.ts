import { toApiView } from "../../serializers/navigation-views";
import { listViews } from "../../store/navigation-views";
import type { StateBuilder } from "./types";

/** `navigation_views`: the caller's pinned and named views (level 390). */
export const navigationViewsState: StateBuilder = async ({ app, user }) => ({
  navigation_views: user ? (await listViews(app.db, user.id)).map(toApiView) : [],
});
