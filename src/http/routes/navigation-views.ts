import {
  addNavigationView,
  addNavigationViewParams,
  editNavigationView,
  editNavigationViewParams,
  listNavigationViews,
  removeNavigationView,
} from "../../actions/navigation-views";
import { endpoint } from "../endpoint";
import { p } from "../../domain/params";

export default [
  endpoint("GET", "/navigation_views", { params: {}, run: async ({ app, user }) => await listNavigationViews(app, user) }),
  endpoint("POST", "/navigation_views", {
    params: addNavigationViewParams,
    run: async ({ app, user, args }) => await addNavigationView(app, user, args),
  }),
  endpoint("PATCH", "/navigation_views/{fragment}", {
    params: { fragment: p.path.str(), ...editNavigationViewParams },
    run: async ({ app, user, args }) => await editNavigationView(app, user, args.fragment, args),
  }),
  endpoint("DELETE", "/navigation_views/{fragment}", {
    params: { fragment: p.path.str() },
    run: async ({ app, user, args }) => await removeNavigationView(app, user, args.fragment),
  }),
];
