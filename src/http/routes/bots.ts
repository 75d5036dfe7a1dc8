import { botPatchParams, createBot, deactivateBot, listOwnBots, newBotParams, regenerateBotApiKey, updateBot } from "../../actions/bots";
import { endpoint } from "../endpoint";
import { p } from "../../domain/params";

export default [
  endpoint("GET", "/bots", { params: {}, run: async ({ app, user }) => await listOwnBots(app, user) }),
  endpoint("POST", "/bots", {
    params: newBotParams,
    run: async ({ app, realm, user, args }) => await createBot(app, realm, user, args),
  }),
  endpoint("PATCH", "/bots/{bot_id}", {
    params: { bot_id: p.path.int(), ...botPatchParams },
    run: async ({ app, realm, user, args }) => await updateBot(app, realm, user, args.bot_id, args),
  }),
  endpoint("DELETE", "/bots/{bot_id}", {
    params: { bot_id: p.path.int() },
    run: async ({ app, user, args }) => await deactivateBot(app, user, args.bot_id),
  }),
  endpoint("POST", "/bots/{bot_id}/api_key/regenerate", {
    params: { bot_id: p.path.int() },
    run: async ({ app, user, args }) => await regenerateBotApiKey(app, user, args.bot_id),
  }),
];
