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
  endpoint("GET", "/navigation_views", { params: {}, run: ({ app, user }) => listNavigationViews(app, user) }),
  endpoint("POST", "/navigation_views", {
    params: addNavigationViewParams,
    run: ({ app, user, args }) => addNavigationView(app, user, args),
  }),
  endpoint("PATCH", "/navigation_views/{fragment}", {
    params: { fragment: p.path.str(), ...editNavigationViewParams },
    run: ({ app, user, args }) => editNavigationView(app, user, args.fragment, args),
  }),
  endpoint("DELETE", "/navigation_views/{fragment}", {
    params: { fragment: p.path.str() },
    run: ({ app, user, args }) => removeNavigationView(app, user, args.fragment),
  }),
];
