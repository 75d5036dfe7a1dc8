import { getStorage, removeStorage, updateStorage } from "../../actions/bot-storage";
import { endpoint } from "../endpoint";
import { p, t } from "../../domain/params";

export default [
  endpoint("GET", "/bot_storage", {
    params: { keys: p.strList().optional() },
    run: ({ app, user, args }) => getStorage(app, user, args.keys),
  }),
  endpoint("PUT", "/bot_storage", {
    params: { storage: p.json(t.dict(t.str())) },
    run: ({ app, user, args }) => updateStorage(app, user, args.storage),
  }),
  endpoint("DELETE", "/bot_storage", {
    params: { keys: p.strList().optional() },
    run: ({ app, user, args }) => removeStorage(app, user, args.keys),
  }),
];
