import { getWidget, getWidgetParams, pushWidget, updateWidgetPreference } from "../../actions/widgets";
import { WIDGET_LIMITS } from "../../domain/widgets";
import { endpoint } from "../endpoint";
import { p, t } from "../../domain/params";

export default [
  endpoint("POST", "/ext/widgets", {
    params: {
      widget: p.str(),
      link_id: p.int().optional(),
      item: p.str().optional(""),
      document: p.json(t.dict(t.any())).optional(),
      data: p.json(t.dict(t.any())).optional(),
    },
    run: ({ app, user, args }) => pushWidget(app, user, args),
  }),
  endpoint("GET", "/ext/widgets/{install_id}/{widget}", {
    params: { install_id: p.path.int(), widget: p.path.str(), ...getWidgetParams },
    run: ({ app, realm, user, args }) => getWidget(app, realm, user, args.install_id, args.widget, args),
  }),
  endpoint("PATCH", "/ext/widgets/{install_id}/{widget}/preference", {
    params: {
      install_id: p.path.int(),
      widget: p.path.str(),
      shown: p.bool().optional(),
      position: p.int({ min: 0, max: WIDGET_LIMITS.position }).optional(),
      label: p.str({ max: WIDGET_LIMITS.prefLabel }).optional(),
      filters: p.json(t.dict(t.any())).optional(),
      alerts: p.json(t.dict(t.any())).optional(),
      in_column: p.bool().optional(),
      reset: p.strList().optional(),
      seen: p.bool().optional(),
      rest_figure: p.str().optional(),
    },
    run: ({ app, realm, user, args }) => updateWidgetPreference(app, realm, user, args.install_id, args.widget, args),
  }),
];
