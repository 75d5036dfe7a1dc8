import { getWidget, getWidgetParams, preferenceParams, pushWidget, pushWidgetParams, updateWidgetPreference } from "../../actions/widgets";
import { endpoint } from "../endpoint";
import { p } from "../../domain/params";

export default [
  endpoint("POST", "/ext/widgets", {
    params: pushWidgetParams,
    run: async ({ app, user, args }) => await pushWidget(app, user, args),
  }),
  endpoint("GET", "/ext/widgets/{install_id}/{widget}", {
    params: { install_id: p.path.int(), widget: p.path.str(), ...getWidgetParams },
    run: async ({ app, realm, user, args }) => await getWidget(app, realm, user, args.install_id, args.widget, args),
  }),
  endpoint("PATCH", "/ext/widgets/{install_id}/{widget}/preference", {
    params: { install_id: p.path.int(), widget: p.path.str(), ...preferenceParams },
    run: async ({ app, realm, user, args }) => await updateWidgetPreference(app, realm, user, args.install_id, args.widget, args),
  }),
];
