import { addPlayground, addPlaygroundParams, removePlayground } from "../../actions/realm-playgrounds";
import { endpoint } from "../endpoint";
import { p } from "../../domain/params";

export default [
  endpoint("POST", "/realm/playgrounds", {
    params: addPlaygroundParams,
    run: ({ app, user, args }) => addPlayground(app, user, args),
  }),
  endpoint("DELETE", "/realm/playgrounds/{playground_id}", {
    params: { playground_id: p.path.int() },
    run: ({ app, user, args }) => removePlayground(app, user, args.playground_id),
  }),
];
