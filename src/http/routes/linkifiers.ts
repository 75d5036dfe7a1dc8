import { addLinkifier, listLinkifiers, removeLinkifier, reorderLinkifiers, updateLinkifier } from "../../actions/linkifiers";
import { endpoint } from "../endpoint";
import { p } from "../../domain/params";

export default [
  endpoint("GET", "/realm/linkifiers", {
    params: {},
    run: ({ app, user }) => listLinkifiers(app, user),
  }),
  endpoint("POST", "/realm/filters", {
    params: { pattern: p.str(), url_template: p.str() },
    run: ({ app, user, args }) => addLinkifier(app, user, args.pattern, args.url_template),
  }),
  endpoint("PATCH", "/realm/filters/{filter_id}", {
    params: { filter_id: p.path.int(), pattern: p.str(), url_template: p.str() },
    run: ({ app, user, args }) => updateLinkifier(app, user, args.filter_id, args.pattern, args.url_template),
  }),
  endpoint("DELETE", "/realm/filters/{filter_id}", {
    params: { filter_id: p.path.int() },
    run: ({ app, user, args }) => removeLinkifier(app, user, args.filter_id),
  }),
  endpoint("PATCH", "/realm/linkifiers", {
    params: { ordered_linkifier_ids: p.intList({ unique: false }) },
    run: ({ app, user, args }) => reorderLinkifiers(app, user, args.ordered_linkifier_ids),
  }),
];
