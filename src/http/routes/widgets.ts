import { getWidget, getWidgetParams, preferenceParams, pushWidget, pushWidgetParams, updateWidgetPreference } from "../../actions/widgets";
import { endpoint } from "../endpoint";
import { p } from "../../domain/params";

export default [
  endpoint("POST", "/ext/widgets", {
    params: pushWidgetParams,
    run: ({ app, user, args }) => pushWidget(app, user, args),
  }),
  endpoint("GET", "/ext/widgets/{install_id}/{widget}", {
    params: { install_id: p.path.int(), widget: p.path.str(), ...getWidgetParams },
    run: ({ app, realm, user, args }) => getWidget(app, realm, user, args.install_id, args.widget, args),
  }),
  endpoint("PATCH", "/ext/widgets/{install_id}/{widget}/preference", {
    params: { install_id: p.path.int(), widget: p.path.str(), ...preferenceParams },
    run: ({ app, realm, user, args }) => updateWidgetPreference(app, realm, user, args.install_id, args.widget, args),
  }),
];
