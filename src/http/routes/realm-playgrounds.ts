import { addPlayground, removePlayground } from "../../actions/realm-playgrounds";
import { endpoint } from "../endpoint";
import { p } from "../params";

export default [
  endpoint("POST", "/realm/playgrounds", {
    params: { name: p.str({ max: 50 }), pygments_language: p.str({ max: 40 }), url_template: p.str() },
    run: ({ app, user, args }) => addPlayground(app, user, args),
  }),
  endpoint("DELETE", "/realm/playgrounds/{playground_id}", {
    params: { playground_id: p.path.int() },
    run: ({ app, user, args }) => removePlayground(app, user, args.playground_id),
  }),
];
