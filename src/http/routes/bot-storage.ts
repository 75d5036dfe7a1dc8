import { getStorage, removeStorage, updateStorage } from "../../actions/bot-storage";
import { endpoint } from "../endpoint";
import { p, t } from "../../domain/params";

export default [
  endpoint("GET", "/bot_storage", {
    params: { keys: p.strList().optional() },
    run: async ({ app, user, args }) => await getStorage(app, user, args.keys),
  }),
  endpoint("PUT", "/bot_storage", {
    params: { storage: p.json(t.dict(t.str())) },
    run: async ({ app, user, args }) => await updateStorage(app, user, args.storage),
  }),
  endpoint("DELETE", "/bot_storage", {
    params: { keys: p.strList().optional() },
    run: async ({ app, user, args }) => await removeStorage(app, user, args.keys),
  }),
];
