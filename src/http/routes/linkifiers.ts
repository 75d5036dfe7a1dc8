import { addLinkifier, listLinkifiers, removeLinkifier, reorderLinkifiers, updateLinkifier } from "../../actions/linkifiers";
import { endpoint } from "../endpoint";
import { p } from "../../domain/params";

export default [
  endpoint("GET", "/realm/linkifiers", {
    params: {},
    run: async ({ app, user }) => await listLinkifiers(app, user),
  }),
  endpoint("POST", "/realm/filters", {
    params: { pattern: p.str(), url_template: p.str() },
    run: async ({ app, user, args }) => await addLinkifier(app, user, args.pattern, args.url_template),
  }),
  endpoint("PATCH", "/realm/filters/{filter_id}", {
    params: { filter_id: p.path.int(), pattern: p.str(), url_template: p.str() },
    run: async ({ app, user, args }) => await updateLinkifier(app, user, args.filter_id, args.pattern, args.url_template),
  }),
  endpoint("DELETE", "/realm/filters/{filter_id}", {
    params: { filter_id: p.path.int() },
    run: async ({ app, user, args }) => await removeLinkifier(app, user, args.filter_id),
  }),
  endpoint("PATCH", "/realm/linkifiers", {
    params: { ordered_linkifier_ids: p.intList({ unique: false }) },
    run: async ({ app, user, args }) => await reorderLinkifiers(app, user, args.ordered_linkifier_ids),
  }),
];
