import { addNavigationView, editNavigationView, listNavigationViews, removeNavigationView } from "../../actions/navigation-views";
import { endpoint } from "../endpoint";
import { p } from "../params";

export default [
  endpoint("GET", "/navigation_views", { params: {}, run: ({ app, user }) => listNavigationViews(app, user) }),
  endpoint("POST", "/navigation_views", {
    params: { fragment: p.str(), is_pinned: p.bool(), name: p.str().optional() },
    run: ({ app, user, args }) => addNavigationView(app, user, args),
  }),
  endpoint("PATCH", "/navigation_views/{fragment}", {
    params: { fragment: p.path.str(), is_pinned: p.bool().optional(), name: p.str().optional() },
    run: ({ app, user, args }) => editNavigationView(app, user, args.fragment, args),
  }),
  endpoint("DELETE", "/navigation_views/{fragment}", {
    params: { fragment: p.path.str() },
    run: ({ app, user, args }) => removeNavigationView(app, user, args.fragment),
  }),
];
