import { visibleWidgetDocuments, widgetPreferencesOf } from "../../serializers/widgets";
import { isGuest } from "../../domain/roles";
import type { StateBuilder } from "./types";

/** `ext_widget`: the latest document of every widget scope the user sees. */
export const extWidgetsState: StateBuilder = async ({ app, realm, user }) => ({
  ext_widgets: user && !isGuest(user.role) ? await visibleWidgetDocuments(app, realm, user) : [],
});

/** `ext_widget_preference`: the user's preference for every widget they see. */
export const extWidgetPreferencesState: StateBuilder = async ({ app, realm, user }) => ({
  ext_widget_preferences: user && !isGuest(user.role) ? await widgetPreferencesOf(app, realm, user) : [],
});
